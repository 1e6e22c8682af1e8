/** The database the service uses when neither the option nor the connection string names one. */
export const DEFAULT_DATABASE_NAME = 'autograph';

/**
 * The database named in a connection string's path (`mongodb://h1,h2/shop?replicaSet=rs0` → `shop`), or
 * undefined. Parsed by hand because multi-host strings are not valid WHATWG URLs.
 */
export function databaseNameFromUri(uri: string): string | undefined {
  const path = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(uri)?.[1];
  return path ? decodeURIComponent(path) : undefined;
}
