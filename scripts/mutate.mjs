// Runs Stryker for each mutated folder, one group of source files at a time with the unit-test files that drive
// that group (stryker.suites.mjs), merges each folder's group reports into reports/mutation/<folder>.json and
// prints the mutation score per file, per folder and for all folders together.
// Usage: npm run mutate [-- persisted auth query mutations store]; MUTATE_CONCURRENCY=2 on an otherwise idle machine.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SUITES, reportFile } from '../stryker.suites.mjs';

// A folder marked onlyWhenNamed (the embedded store: hours for its in-memory reads) runs only when named.
const folders = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(SUITES).filter((folder) => !SUITES[folder].onlyWhenNamed);
const unknown = folders.filter((folder) => !(folder in SUITES));
if (unknown.length > 0) {
  console.error(`unknown folder(s) ${unknown.join(', ')}; choose from ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}

/** Every source file of a folder must be in exactly one group, or its mutants would go untested or twice counted. */
function checkGroupsCoverFolder(folder) {
  const { dir, groups } = SUITES[folder];
  const grouped = groups.flatMap((group) => group.mutate);
  const sources = fs.readdirSync(dir, { recursive: true })
    .map((file) => path.join(dir, String(file)).split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
  const missing = sources.filter((file) => !grouped.includes(file));
  const twice = grouped.filter((file, index) => grouped.indexOf(file) !== index);
  const absent = grouped.filter((file) => !sources.includes(file));
  if (missing.length + twice.length + absent.length > 0) {
    console.error(`stryker.suites.mjs, ${folder}: ungrouped ${missing.join(', ') || '-'}; twice ${twice.join(', ') || '-'}; no such file ${absent.join(', ') || '-'}`);
    process.exit(2);
  }
}
folders.forEach(checkGroupsCoverFolder);

/** Stryker's statuses that count in the score (Ignored, CompileError and RuntimeError do not). */
function tally(files) {
  const counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0 };
  const key = { Killed: 'killed', Timeout: 'timeout', Survived: 'survived', NoCoverage: 'noCoverage', Ignored: 'ignored' };
  for (const file of Object.values(files)) {
    for (const mutant of file.mutants) if (mutant.status in key) counts[key[mutant.status]] += 1;
  }
  return counts;
}

function scoreLine(name, counts) {
  const detected = counts.killed + counts.timeout;
  const valid = detected + counts.survived + counts.noCoverage;
  const score = valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(2)} %`;
  return `${name.padEnd(52)} ${score.padStart(8)}   killed ${counts.killed}, timeout ${counts.timeout}, survived ${counts.survived}, no coverage ${counts.noCoverage}, ignored ${counts.ignored}`;
}

let failed = false;
const lines = [];
const total = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0 };
for (const folder of folders) {
  const started = Date.now();
  const merged = {};
  let first;
  SUITES[folder].groups.forEach((group, index) => {
    const run = spawnSync('npx', ['stryker', 'run'], {
      stdio: 'inherit',
      env: { ...process.env, MUTATE_FOLDER: folder, MUTATE_GROUP: String(index) },
    });
    if (run.status !== 0) {
      console.error(`mutation testing of ${group.mutate.join(', ')} failed (exit ${run.status})`);
      failed = true;
      return;
    }
    const report = JSON.parse(fs.readFileSync(reportFile(folder, index, 'json'), 'utf8'));
    first ??= report;
    Object.assign(merged, report.files);
  });
  if (first !== undefined) fs.writeFileSync(reportFile(folder, undefined, 'json'), JSON.stringify({ ...first, files: merged }));
  const counts = tally(merged);
  for (const key of Object.keys(total)) total[key] += counts[key];
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  lines.push(scoreLine(`${SUITES[folder].dir} (${minutes} min)`, counts));
  for (const file of Object.keys(merged).sort()) lines.push(scoreLine(`  ${file}`, tally({ [file]: merged[file] })));
}
console.log(`\nMutation score = (killed + timeout) ÷ (killed + timeout + survived + no coverage); ignored = judged equivalent\n${lines.join('\n')}`);
console.log(scoreLine('all folders', total));
process.exitCode = failed ? 1 : 0;
