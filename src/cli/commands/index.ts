import type { Command } from '../command.js';
import { backupCommand } from './backup.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';

/** Every CLI command. Each lives in its own module under commands/ and is listed here once. */
export const COMMANDS: readonly Command[] = [exportCommand, importCommand, backupCommand];
