/**
 * The API bench's data in PostgreSQL: the same users and tasks as bench/api-data.ts writes into Autograph's
 * store (same ids, titles, values), into the tables of bench/postgraphile/schema.sql, by COPY through psql,
 * then the indexes of bench/postgraphile/indexes.sql (made after the load, as one does for a bulk load).
 */
import path from 'node:path';
import { benchTaskBatches, benchUsers } from './api-data.js';
import type { PostgresCluster } from './postgres-cluster.js';

type CsvValue = string | number | boolean;

/** One line of CSV as PostgreSQL's COPY reads it: every value quoted, quotes doubled. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map((value) => `"${String(value).replace(/"/g, '""')}"`).join(',')}\n`;
}

function* userLines(): Generator<string> {
  for (const user of benchUsers()) yield csvLine([user._id, user.username, user.name]);
}

/** The tasks in lines joined per batch: one write per 10,000 tasks instead of one per task. */
function* taskChunks(tasks: number): Generator<string> {
  for (const batch of benchTaskBatches(tasks)) {
    yield batch.map((task) => csvLine([task._id, task.title, task.priority, task.completed, task.createdAt, task.user])).join('');
  }
}

/** Creates the schema of `folder` (bench/postgraphile), loads the users and `tasks` tasks, then indexes them. */
export async function loadPostgres(cluster: PostgresCluster, folder: string, tasks: number): Promise<void> {
  await cluster.psql(['-f', path.join(folder, 'schema.sql')]);
  await cluster.psql(['-c', 'copy app_user (id, username, name) from stdin with (format csv)'], userLines());
  await cluster.psql(['-c', 'copy task (id, title, priority, completed, created_at, user_id) from stdin with (format csv)'], taskChunks(tasks));
  await cluster.psql(['-f', path.join(folder, 'indexes.sql')]);
}
