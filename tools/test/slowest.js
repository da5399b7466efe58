// Prints the ten slowest test files of a `npm test` run (tools/test.sh, at the end):
//   node tools/test/slowest.js <jest file times (JSON lines)> [<playwright results.json> <label>]...
// Jest files by their seconds from start to end (a file run in a bundle from its first hook to
// its last, tools/test/bundles.js); Playwright files by the sum of their tests' durations (one
// browser worker runs them one after another). docs/testing.md says what a file may take.
// Jest files also show the CPU seconds they cost their worker and the processes they started;
// then a line sums both over every Jest file, and the ten files that wait the most (seconds not
// spent on their own CPU: timers, PostgreSQL, Redis, other processes, a busy machine) are named.
'use strict';

const fs = require('node:fs');

const COUNT = 10;

function jestTimes(file) {
  if (!file || !fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .flatMap((line) => {
      try {
        const { file: name, seconds, cpu } = JSON.parse(line);
        return [{ name, seconds, cpu, runner: 'jest' }];
      } catch {
        return [];
      }
    });
}

function playwrightTimes(file, label) {
  let report;
  try {
    report = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  const perFile = new Map();
  const visit = (suite, fileName) => {
    const name = suite.file ?? fileName;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        for (const result of test.results ?? []) {
          perFile.set(name, (perFile.get(name) ?? 0) + (result.duration ?? 0) / 1000);
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child, name);
  };
  for (const suite of report.suites ?? []) visit(suite, suite.file);
  return [...perFile].map(([name, seconds]) => ({
    name: `apps/${label}/e2e/${name}`.replace(
      `apps/${label}/e2e/apps/${label}/e2e/`,
      `apps/${label}/e2e/`,
    ),
    seconds: Math.round(seconds * 10) / 10,
    runner: 'playwright',
  }));
}

function main(args) {
  const [jestFile, ...rest] = args;
  const all = jestTimes(jestFile);
  for (let i = 0; i + 1 < rest.length; i += 2) all.push(...playwrightTimes(rest[i], rest[i + 1]));
  if (all.length === 0) return;
  all.sort((a, b) => b.seconds - a.seconds);
  const lines = all.slice(0, COUNT).map((t) => `  ${fileLine(t)}`);
  process.stderr.write(
    `test.sh: the ${COUNT} slowest test files of this run (wall, CPU):\n${lines.join('\n')}\n`,
  );
  const measured = all.filter((t) => t.runner === 'jest' && typeof t.cpu === 'number');
  if (measured.length === 0) return;
  const wall = measured.reduce((sum, t) => sum + t.seconds, 0);
  const cpu = measured.reduce((sum, t) => sum + t.cpu, 0);
  const waiting = [...measured]
    .sort((a, b) => b.seconds - b.cpu - (a.seconds - a.cpu))
    .slice(0, COUNT)
    .map((t) => `  ${(t.seconds - t.cpu).toFixed(1).padStart(7)} s waiting  ${fileLine(t)}`);
  process.stderr.write(
    `test.sh: ${measured.length} Jest files: ${wall.toFixed(0)} s of file time, ` +
      `${cpu.toFixed(0)} s of CPU in their workers and the processes they started ` +
      `(${((100 * cpu) / wall).toFixed(0)} %); the ${COUNT} that wait the most:\n` +
      `${waiting.join('\n')}\n`,
  );
}

function fileLine(t) {
  const cpu = typeof t.cpu === 'number' ? `${t.cpu.toFixed(1).padStart(6)} s CPU  ` : '';
  const kind = t.runner === 'playwright' ? '  (Playwright)' : '';
  return `${t.seconds.toFixed(1).padStart(7)} s  ${cpu}${t.name}${kind}`;
}

main(process.argv.slice(2));
