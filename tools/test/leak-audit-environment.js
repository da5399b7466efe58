// Jest test environment for every project: Node's, plus an audit at the end of each test file.
// A child process, listening server or worker thread still alive after a file's teardown keeps
// the Jest worker from exiting (Jest then kills it and cannot say which file was to blame).
// The audit waits for such handles to go away; those that stay are named with the file in
// $TEST_LEAK_REPORT (tools/test.sh fails the run on any) and stopped, so the worker can exit.
const { TestEnvironment } = require('jest-environment-node');
const { appendFileSync } = require('node:fs');
const { relative } = require('node:path');

const GRACE_MS = 3_000;

function describeHandle(handle) {
  const kind = handle?.constructor?.name;
  if (kind === 'ChildProcess') return `child process ${handle.pid} ${handle.spawnargs.join(' ')}`;
  if (kind === 'Server' || kind === 'Http2Server' || kind === 'Http2SecureServer') {
    const address = typeof handle.address === 'function' ? handle.address() : null;
    return address === null ? null : `${kind} listening on ${JSON.stringify(address)}`;
  }
  if (kind === 'Worker') return `worker thread ${handle.threadId}`;
  return null;
}

function lingering() {
  return process
    ._getActiveHandles()
    .map((handle) => ({ handle, what: describeHandle(handle) }))
    .filter((entry) => entry.what !== null);
}

function stop({ handle }) {
  const kind = handle.constructor.name;
  if (kind === 'ChildProcess') handle.kill('SIGKILL');
  else if (kind === 'Worker') void handle.terminate();
  else handle.close();
}

class LeakAuditEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = relative(process.cwd(), context.testPath);
  }

  async teardown() {
    await super.teardown();
    const deadline = Date.now() + GRACE_MS;
    let left = lingering();
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = lingering();
    }
    if (left.length === 0) return;
    const line = `${this.testPath}: ${left.map((entry) => entry.what).join('; ')}`;
    process.stderr.write(`test left open: ${line}\n`);
    if (process.env.TEST_LEAK_REPORT) appendFileSync(process.env.TEST_LEAK_REPORT, `${line}\n`);
    left.forEach(stop);
  }
}

module.exports = LeakAuditEnvironment;
