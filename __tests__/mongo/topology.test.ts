import type { ServerDescription } from 'mongodb';
import { databaseNameFromUri } from '../../src/store/mongo/database-name.js';
import { deploymentFromHello, hasWritableServer } from '../../src/store/mongo/topology.js';

function topologyOf(...types: string[]): { servers: Map<string, ServerDescription> } {
  return {
    servers: new Map(types.map((type, i) => [`h${i}:27017`, { type } as ServerDescription])),
  };
}

describe('hasWritableServer', () => {
  it.each<[string[], boolean]>([
    [[], false],
    [['Unknown'], false],
    [['RSSecondary', 'RSSecondary', 'RSArbiter'], false],
    [['RSSecondary', 'RSPrimary'], true],
    [['Standalone'], true],
    [['Mongos', 'Unknown'], true],
    [['LoadBalancer'], true],
  ])('servers %j → %s', (types, expected) => {
    expect(hasWritableServer(topologyOf(...types))).toBe(expected);
  });
});

describe('deploymentFromHello', () => {
  it('recognises a replica set member by setName', () => {
    expect(deploymentFromHello({ isWritablePrimary: true, setName: 'rs0' })).toEqual({
      kind: 'replicaSet',
      supportsTransactions: true,
      description: 'replica set rs0',
    });
  });

  it('recognises mongos by msg isdbgrid', () => {
    expect(deploymentFromHello({ isWritablePrimary: true, msg: 'isdbgrid' })).toMatchObject({
      kind: 'sharded',
      supportsTransactions: true,
    });
  });

  it('treats anything else as a standalone server without transactions', () => {
    expect(deploymentFromHello({ isWritablePrimary: true })).toMatchObject({
      kind: 'standalone',
      supportsTransactions: false,
    });
  });
});

describe('databaseNameFromUri', () => {
  it.each<[string, string | undefined]>([
    ['mongodb://localhost:27017', undefined],
    ['mongodb://localhost:27017/', undefined],
    ['mongodb://localhost/shop', 'shop'],
    ['mongodb://u:p@h1:27017,h2:27017/shop?replicaSet=rs0', 'shop'],
    ['mongodb+srv://u:p@cluster0.example.net/app%20data?retryWrites=true', 'app data'],
    ['mongodb://h1,h2/?replicaSet=rs0', undefined],
  ])('%s → %s', (uri, expected) => {
    expect(databaseNameFromUri(uri)).toBe(expected);
  });
});
