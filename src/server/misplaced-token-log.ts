import type { Logger } from 'pino';

/** How often one header name is logged at most, and how many names are remembered (header names are the client's). */
const PERIOD_MS = 60_000;
const MAX_NAMES = 256;

/**
 * The auth plugin's `onMisplacedToken`: a `warn` line when a request's token sits in another header than the
 * schema's, at most once per header name and minute, so a misconfigured client is seen without flooding the log.
 */
export function misplacedTokenLogger(logger: Logger, now: () => number = Date.now): (found: string, configured: string) => void {
  const lastLogged = new Map<string, number>();
  return (found, configured) => {
    const at = now();
    const last = lastLogged.get(found);
    if (last !== undefined && at - last < PERIOD_MS) return;
    if (lastLogged.size >= MAX_NAMES) {
      for (const [name, time] of lastLogged) if (at - time >= PERIOD_MS) lastLogged.delete(name);
      if (lastLogged.size >= MAX_NAMES) return;
    }
    lastLogged.set(found, at);
    logger.warn({ header: found, configured }, `a request carries a token in the header ${found}, but the schema reads tokens from ${configured}: it was answered as anonymous`);
  };
}
