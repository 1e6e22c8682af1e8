// Runs Stryker once per mutated folder (see stryker.config.mjs), in turn, and prints how long each took.
// Usage: npm run mutate [-- persisted auth query mutations]
import { spawnSync } from 'node:child_process';

const ALL_FOLDERS = ['persisted', 'auth', 'query', 'mutations'];
const folders = process.argv.length > 2 ? process.argv.slice(2) : ALL_FOLDERS;

let failed = false;
for (const folder of folders) {
  const started = Date.now();
  const run = spawnSync('npx', ['stryker', 'run'], { stdio: 'inherit', env: { ...process.env, MUTATE_FOLDER: folder } });
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`mutation testing of ${folder}: ${run.status === 0 ? 'done' : `failed (exit ${run.status})`} in ${minutes} min`);
  failed ||= run.status !== 0;
}
process.exitCode = failed ? 1 : 0;
