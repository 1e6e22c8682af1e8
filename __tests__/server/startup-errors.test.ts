import { OtlpConfigError } from '../../src/observe/otlp-config';
import { startupHint } from '../../src/server/startup-errors';
import { DataDirectoryLockedError } from '../../src/store/embedded/index';

const SETTINGS = { host: '127.0.0.1', port: 8080, dataDir: '/srv/autograph/data' };

function errno(code: string, fields: Partial<NodeJS.ErrnoException> = {}): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code, ...fields });
}

describe('startupHint', () => {
  it.each<[string, unknown, string | undefined]>([
    [
      'data folder locked',
      new DataDirectoryLockedError('/srv/autograph/data', 4321),
      'the data folder /srv/autograph/data is in use by process 4321 (another autograph?): stop that process, or give this one another folder with --data (DATA_DIR)',
    ],
    [
      'port taken',
      errno('EADDRINUSE', { syscall: 'listen' }),
      'port 8080 on 127.0.0.1 is already in use: stop the program listening there, or choose another port with --port (PORT)',
    ],
    [
      'address not on this machine',
      errno('EADDRNOTAVAIL', { syscall: 'listen' }),
      'cannot listen on 127.0.0.1:8080: 127.0.0.1 is not an address of this machine; choose one with --host (HOST), e.g. 127.0.0.1 or 0.0.0.0',
    ],
    [
      'privileged port',
      errno('EACCES', { syscall: 'listen' }),
      'not allowed to listen on 127.0.0.1:8080: ports below 1024 need privileges; choose another port with --port (PORT)',
    ],
    [
      'data folder not writable',
      errno('EACCES', { syscall: 'mkdir', path: '/srv/autograph/data' }),
      'permission denied on /srv/autograph/data: the data folder must be writable by this user; fix its owner or choose another with --data (DATA_DIR)',
    ],
    [
      'an OTLP protocol it cannot send',
      new OtlpConfigError('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: set it to http/protobuf or http/json'),
      'OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: set it to http/protobuf or http/json',
    ],
    ['anything else keeps its stack trace', new TypeError('x is not a function'), undefined],
    ['a thrown non-error', 'boom', undefined],
  ])('%s', (_name, error, expected) => {
    expect(startupHint(error, SETTINGS)).toBe(expected);
  });
});
