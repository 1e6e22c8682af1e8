/**
 * Jest's globalSetup: says once per run which backend the end-to-end suites use (see ./backend.ts).
 * The MongoDB store contract suite prints its own notice when it is skipped.
 */
export default function announceTestBackend(): void {
  if (process.env.MONGODB_URI) {
    process.stderr.write('MONGODB_URI is set: the end-to-end suites run on MongoDB (a fresh database per server, dropped afterwards)\n');
  } else if (process.env.JEST_EMBEDDED_ONLY === 'true') {
    process.stderr.write('JEST_EMBEDDED_ONLY is set: the embedded store only, no mongodb-wire project\n');
  } else {
    process.stderr.write(
      'MONGODB_URI not set: the end-to-end suites run on the embedded store, and again in the mongodb-wire project ' +
        'through the driver on the wire test server (a standalone stand-in; see __tests__/helpers/wire-mongo/)\n',
    );
  }
}
