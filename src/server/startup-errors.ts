import { OtlpConfigError } from '../observe/otlp-config.js';
import { DataDirectoryLockedError } from '../store/embedded/index.js';

/** Where the service was asked to listen and keep its data, for the hints below. */
export interface StartupSettings {
  host: string;
  port: number;
  dataDir: string;
}

/**
 * One line telling the operator what to change, for start-up failures that are a matter of configuration
 * or of another process (folder locked, port taken, address not here); undefined for anything else,
 * which is a fault worth its stack trace.
 */
export function startupHint(error: unknown, settings: StartupSettings): string | undefined {
  if (error instanceof DataDirectoryLockedError) {
    return `the data folder ${error.dataDir} is in use by process ${error.pid} (another autograph?): stop that process, or give this one another folder with --data (DATA_DIR)`;
  }
  if (error instanceof OtlpConfigError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${settings.host}:${settings.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${settings.port} on ${settings.host} is already in use: stop the program listening there, or choose another port with --port (PORT)`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${settings.host} is not an address of this machine; choose one with --host (HOST), e.g. 127.0.0.1 or 0.0.0.0`;
    case 'EACCES':
      return (error as NodeJS.ErrnoException).syscall === 'listen'
        ? `not allowed to listen on ${where}: ports below 1024 need privileges; choose another port with --port (PORT)`
        : `permission denied on ${(error as NodeJS.ErrnoException).path ?? settings.dataDir}: the data folder must be writable by this user; fix its owner or choose another with --data (DATA_DIR)`;
    default:
      return undefined;
  }
}
