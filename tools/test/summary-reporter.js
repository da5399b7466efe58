// Jest reporter that ends a run with one plain line, `N passed, N failed[, N skipped]`, the
// closing line the CI harness reads (Jest's own summary is not one it understands).
// A test suite that failed without a failing test (it could not run, or a hook threw)
// counts as one failure. With TEST_SUMMARY_FILE set, the line goes to that file instead,
// so tools/test.sh can print it after everything else Jest may print on exit.
// With TEST_DURATIONS_FILE set, the seconds each test file took are written there as JSON
// (paths relative to the repository): tools/test/durations.json, read by tools/test/sequencer.js.
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
    if (process.env.TEST_DURATIONS_FILE) writeDurations(process.env.TEST_DURATIONS_FILE, results);
    const line = summaryLine(results);
    const file = process.env.TEST_SUMMARY_FILE;
    if (file) {
      fs.writeFileSync(file, `${line}\n`);
    } else {
      process.stdout.write(`${line}\n`);
    }
  }
}

function writeDurations(file, results) {
  const durations = {};
  for (const suite of results.testResults) {
    const { start, end } = suite.perfStats ?? {};
    if (!start || !end) continue;
    durations[path.relative(ROOT, suite.testFilePath)] = Math.round((end - start) / 100) / 10;
  }
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
  fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
}

module.exports = SummaryReporter;
module.exports.summaryLine = summaryLine;
