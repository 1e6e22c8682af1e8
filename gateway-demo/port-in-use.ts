/**
 * One line for a service of the demo that cannot listen because its port is taken, naming the variable
 * that moves it; undefined for any other failure (which keeps its stack trace).
 */
export function portInUseHint(error: unknown, service: string, port: number, variable: string): string | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return undefined;
  return `port ${port} (the ${service}) is already in use: stop the program listening there, or choose another port with ${variable}=<port>`;
}

/** Prints the one-line hint and exits 1 when `error` is a taken port, else the error with its stack. */
export function exitOnStartFailure(error: unknown, hint: string | undefined): never {
  console.error(hint ?? error);
  process.exit(1);
}
