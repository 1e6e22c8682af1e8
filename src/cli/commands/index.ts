import type { Command } from '../command.js';

/** Every CLI command. Each lives in its own module under commands/ and is listed here once. */
export const COMMANDS: readonly Command[] = [];
