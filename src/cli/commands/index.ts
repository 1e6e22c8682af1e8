import type { Command } from '../command.js';
import { backupCommand } from './backup.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { lambdaPush } from './lambda-push.js';
import { schemaDiff } from './schema-diff.js';
import { schemaHistory } from './schema-history.js';
import { schemaPush } from './schema-push.js';
import { schemaRollback } from './schema-rollback.js';

/** Every CLI command. Each lives in its own module under commands/ and is listed here once. */
export const COMMANDS: readonly Command[] = [
  schemaPush,
  schemaDiff,
  schemaHistory,
  schemaRollback,
  lambdaPush,
  exportCommand,
  importCommand,
  backupCommand,
];
