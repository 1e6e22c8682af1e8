import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/**
 * One JSON line per event on stdout (or `destination`), with an ISO time and `msg` naming the event.
 * Writes are synchronous: the service logs events, not per-request traffic, and a line logged just before
 * `process.exit` must not be lost.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'autograph' }, timestamp: pino.stdTimeFunctions.isoTime };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: true }));
}
