// Jest reporter that ends a run with one plain line, `N passed, N failed[, N skipped]`, the
// closing line the CI harness reads (Jest's own summary is not one it understands).
// A test suite that failed without a failing test (it could not run, or a hook threw)
// counts as one failure. With TEST_SUMMARY_FILE set, the line goes to that file instead,
// so tools/test.sh can print it after everything else Jest may print on exit.
// With TEST_DURATIONS_FILE set, the seconds each test file took are written there as JSON
// (paths relative to the repository): tools/test/durations.json, read by tools/test/sequencer.js.
// With TEST_FILE_TIMES set, the same seconds go there as JSON lines (tools/test/slowest.js
// prints the ten slowest files at the end of `npm test`). A bundle of e2e files
// (tools/test/bundles.js) is listed by the files it ran, each with the seconds from its first
// hook to its last (TEST_PART_TIMES, written by the bundle); the files of a bundle that failed
// before they ran are left out. Each line also carries the CPU seconds the file cost its Jest
// worker and the processes it started (`cpu`: TEST_FILE_CPU, written by the test environment,
// or the bundle's part times), so slowest.js can tell waiting files from working ones.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');

function suiteFailuresWithoutFailingTests(testResults) {
  return testResults.filter(
    (suite) =>
      suite.numFailingTests === 0 && (suite.testExecError != null || Boolean(suite.failureMessage)),
  ).length;
}

function summaryLine(results) {
  const passed = results.numPassedTests;
  const failed = results.numFailedTests + suiteFailuresWithoutFailingTests(results.testResults);
  const skipped = results.numPendingTests + results.numTodoTests;
  const line = `${passed} passed, ${failed} failed`;
  return skipped > 0 ? `${line}, ${skipped} skipped` : line;
}

class SummaryReporter {
  onRunComplete(_testContexts, results) {
    const times = fileTimes(results);
    if (process.env.TEST_DURATIONS_FILE) writeDurations(process.env.TEST_DURATIONS_FILE, times);
    if (process.env.TEST_FILE_TIMES) {
      const cpu = fileCpu();
      fs.writeFileSync(
        process.env.TEST_FILE_TIMES,
        Object.entries(times)
          .map(
            ([file, seconds]) =>
              `${JSON.stringify({ file, seconds, cpu: cpu.get(file), runner: 'jest' })}\n`,
          )
          .join(''),
      );
    }
    const line = summaryLine(results);
    const file = process.env.TEST_SUMMARY_FILE;
    if (file) {
      fs.writeFileSync(file, `${line}\n`);
    } else {
      process.stdout.write(`${line}\n`);
    }
  }
}

/** The JSON lines of a file the test processes append to (none when unset or missing). */
function jsonLines(file) {
  if (!file || !fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (!line.trim()) return [];
      try {
        return [JSON.parse(line)];
      } catch {
        return []; // a line cut short by a killed worker
      }
    });
}

/** The seconds bundles recorded for each of their files (file -> seconds). */
function partTimes() {
  return new Map(jsonLines(process.env.TEST_PART_TIMES).map(([part, seconds]) => [part, seconds]));
}

/** CPU seconds per test file (file -> seconds), a bundle's files from its part times. */
function fileCpu() {
  const cpu = new Map();
  for (const { file, cpu: seconds } of jsonLines(process.env.TEST_FILE_CPU)) {
    cpu.set(file, seconds);
  }
  for (const [part, , seconds] of jsonLines(process.env.TEST_PART_TIMES)) {
    if (typeof seconds === 'number') cpu.set(part, Math.round(seconds * 100) / 100);
  }
  return cpu;
}

/** Seconds per test file, relative to the repository; a bundle as the files it ran. */
function fileTimes(results) {
  const parts = partTimes();
  const { partsOf, BUNDLE_DIR } = require('./bundles');
  const times = {};
  for (const suite of results.testResults) {
    if (suite.testFilePath.includes(`${path.sep}${BUNDLE_DIR}${path.sep}`)) {
      for (const part of partsOf(suite.testFilePath)) {
        if (parts.has(part)) times[part] = Math.round(parts.get(part) * 10) / 10;
      }
      continue;
    }
    const { start, end } = suite.perfStats ?? {};
    if (!start || !end) continue;
    times[path.relative(ROOT, suite.testFilePath)] = Math.round((end - start) / 100) / 10;
  }
  return times;
}

function writeDurations(file, durations) {
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
  fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
}

module.exports = SummaryReporter;
module.exports.summaryLine = summaryLine;
