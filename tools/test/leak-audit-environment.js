// Jest test environment for every project: Node's, plus an audit at the end of each test file.
// A child process, listening server or worker thread still alive after a file's teardown keeps
// the Jest worker from exiting (Jest then kills it and cannot say which file was to blame).
// The audit waits for such handles to go away; those that stay are named with the file in
// $TEST_LEAK_REPORT (tools/test.sh fails the run on any) and stopped, so the worker can exit.
// With $TEST_FILE_CPU set, the CPU seconds the file cost its worker and the processes it started
// go there as a JSON line (tools/test/summary-reporter.js puts them beside the file's seconds).
const { TestEnvironment } = require('jest-environment-node');
const { appendFileSync } = require('node:fs');
const { relative } = require('node:path');
const { cpuSeconds } = require('./cpu-time');

const GRACE_MS = 3_000;

/**
 * Client sockets and timers a file leaves behind also keep the Jest worker alive at the end of
 * the run, but stopping them could crash their owner (a pg client errors on a socket it did not
 * close). They are waited for and, if they stay, named on stderr with the file (not failed):
 * when Jest has to kill a worker, the log says which file held it.
 */
function clientSockets() {
  return process
    ._getActiveHandles()
    .filter(
      (handle) =>
        handle?.constructor?.name === 'Socket' &&
        !handle.destroyed &&
        typeof handle.remotePort === 'number' &&
        handle !== process.stdout &&
        handle !== process.stderr &&
        handle !== process.stdin,
    );
}

function activeTimers() {
  return typeof process.getActiveResourcesInfo === 'function'
    ? process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length
    : 0;
}

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

  async setup() {
    this.cpuAtStart = cpuSeconds();
    await super.setup();
    this.socketsBefore = new Set(clientSockets());
    this.timersBefore = activeTimers();
  }

  async teardown() {
    await super.teardown();
    const deadline = Date.now() + GRACE_MS;
    let left = lingering();
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = lingering();
    }
    if (left.length > 0) this.report(left);
    await this.auditClientHandles(deadline);
    this.recordCpu();
  }

  recordCpu() {
    const out = process.env.TEST_FILE_CPU;
    if (!out || this.cpuAtStart === undefined) return;
    const cpu = Math.round((cpuSeconds() - this.cpuAtStart) * 100) / 100;
    appendFileSync(out, `${JSON.stringify({ file: this.testPath, cpu })}\n`);
  }

  async auditClientHandles(deadline) {
    const fresh = () => clientSockets().filter((socket) => !this.socketsBefore.has(socket));
    let sockets = fresh();
    let timers = activeTimers() - this.timersBefore;
    while ((sockets.length > 0 || timers > 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      sockets = fresh();
      timers = activeTimers() - this.timersBefore;
    }
    const what = sockets.map((socket) => `socket to ${socket.remoteAddress}:${socket.remotePort}`);
    if (timers > 0) what.push(`${timers} timer(s)`);
    if (what.length > 0) {
      process.stderr.write(`test may hold the worker open: ${this.testPath}: ${what.join('; ')}\n`);
    }
  }

  report(left) {
    const line = `${this.testPath}: ${left.map((entry) => entry.what).join('; ')}`;
    process.stderr.write(`test left open: ${line}\n`);
    if (process.env.TEST_LEAK_REPORT) appendFileSync(process.env.TEST_LEAK_REPORT, `${line}\n`);
    left.forEach(stop);
  }
}

module.exports = LeakAuditEnvironment;
