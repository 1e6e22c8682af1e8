import type { TopologyDescription } from 'mongodb';

/** Server kinds that accept writes; a topology with one of them known can serve every request. */
const WRITABLE_SERVER_TYPES = new Set<string>(['Standalone', 'Mongos', 'RSPrimary', 'LoadBalancer']);

export function hasWritableServer(description: Pick<TopologyDescription, 'servers'>): boolean {
  for (const server of description.servers.values()) {
    if (WRITABLE_SERVER_TYPES.has(server.type)) {
      return true;
    }
  }
  return false;
}

/** What the deployment can do, read from a `hello` reply. */
export interface DeploymentInfo {
  kind: 'standalone' | 'replicaSet' | 'sharded';
  /** Multi-document transactions need a replica set or a sharded cluster. */
  supportsTransactions: boolean;
  description: string;
}

export function deploymentFromHello(hello: Record<string, unknown>): DeploymentInfo {
  if (typeof hello.setName === 'string') {
    return { kind: 'replicaSet', supportsTransactions: true, description: `replica set ${hello.setName}` };
  }
  if (hello.msg === 'isdbgrid') {
    return { kind: 'sharded', supportsTransactions: true, description: 'sharded cluster (mongos)' };
  }
  return { kind: 'standalone', supportsTransactions: false, description: 'standalone server' };
}
