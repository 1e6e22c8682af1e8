/** The commands a driver sends to connect, monitor and clean up: `hello`/`isMaster`, `ping`, `buildInfo`, `endSessions`. */
import type { CommandContext, CommandHandler } from './context';

/** A standalone mongod 7.0: no `setName`, no `msg: 'isdbgrid'`, so the driver sees topology type Single. */
export function standaloneHello(connectionId: number) {
  return {
    helloOk: true,
    isWritablePrimary: true,
    ismaster: true,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
}

function hello({ connectionId }: CommandContext) {
  return standaloneHello(connectionId);
}

export const handshakeCommands: Record<string, CommandHandler> = {
  hello,
  isMaster: hello,
  ismaster: hello,
  ping: () => ({ ok: 1 }),
  buildInfo: () => ({ version: '7.0.0', versionArray: [7, 0, 0, 0], bits: 64, maxBsonObjectSize: 16 * 1024 * 1024, ok: 1 }),
  endSessions: () => ({ ok: 1 }),
};
