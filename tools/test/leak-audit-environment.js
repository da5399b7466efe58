// Jest test environment for every project: Node's, plus an audit at the end of each test file.
// A child process, listening server or worker thread still alive after a file's teardown keeps
// the Jest worker from exiting (Jest then kills it and cannot say which file was to blame).
// The audit waits for such handles to go away; those that stay are named with the file in
// $TEST_LEAK_REPORT (tools/test.sh fails the run on any) and stopped, so the worker can exit.
// With $TEST_FILE_CPU set, the CPU seconds the file cost its worker and the processes it started
// go there as a JSON line (tools/test/summary-reporter.js puts them beside the file's seconds).
const { TestEnvironment } = require('jest-environment-node');
const { appendFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const v8 = require('node:v8');
const { PerformanceObserver } = require('node:perf_hooks');
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

/**
 * PerformanceObservers a test file starts and never disconnects (prom-client's default metrics
 * observe 'gc' entries for every registry an app makes, and never stop): perf_hooks is the
 * worker's own module, so Node keeps each observer in its process-wide list and, through its
 * callback, the context and whole module registry of the file that made it (~35 MB a findings
 * e2e file), and calls it into that torn-down file on every GC. The worker's observe() records
 * the observers started while a file runs; its teardown disconnects them.
 */
const observe = PerformanceObserver.prototype.observe;
let fileObservers = null;
PerformanceObserver.prototype.observe = function observeRecorded(...args) {
  fileObservers?.add(this);
  return observe.apply(this, args);
};

function ranAlready() {
  throw new Error('tools/test/leak-audit-environment.js: a finished describe block ran again');
}

class LeakAuditEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = relative(process.cwd(), context.testPath);
  }

  async setup() {
    this.writeHeapSnapshot();
    this.cpuAtStart = cpuSeconds();
    fileObservers = new Set();
    this.observers = fileObservers;
    await super.setup();
    this.socketsBefore = new Set(clientSockets());
    this.timersBefore = activeTimers();
  }

  async teardown() {
    await super.teardown();
    this.disconnectObservers();
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

  /**
   * JEST_HEAP_SNAPSHOT_DIR=<dir> (off by default): a V8 heap snapshot of the worker as each
   * file's environment is set up, i.e. with what the earlier files left behind and the new
   * file's still empty context (<dir>/<pid>-<n>.heapsnapshot, n counting the worker's files from
   * 1). Writing one costs about a second of CPU per 100 MB of heap.
   */
  writeHeapSnapshot() {
    const dir = process.env.JEST_HEAP_SNAPSHOT_DIR;
    if (!dir) return;
    LeakAuditEnvironment.filesInWorker += 1;
    v8.writeHeapSnapshot(
      join(dir, `${process.pid}-${LeakAuditEnvironment.filesInWorker}.heapsnapshot`),
    );
  }

  /**
   * A describe block that has finished never runs its hooks and tests again (unless it or a block
   * around it retries): their functions are dropped, so what their closures hold — in a bundle
   * (tools/test/bundles.js) a part's booted app — is freed when the part ends, not the bundle.
   */
  handleTestEvent(event, state) {
    if (event.name !== 'run_describe_finish' || !event.describeBlock.parent) return;
    for (let block = event.describeBlock; block; block = block.parent) {
      if (state.describeRetryOptions?.get(block)) return;
    }
    const release = (entry) => {
      entry.fn = ranAlready;
      // The stack V8 keeps unformatted holds its frames' functions and receivers (the hooks'
      // closures); formatted, it is a string.
      void entry.asyncError?.stack;
    };
    event.describeBlock.hooks.forEach(release);
    for (const child of event.describeBlock.children) if (child.type === 'test') release(child);
  }

  disconnectObservers() {
    if (fileObservers === this.observers) fileObservers = null;
    for (const observer of this.observers ?? []) observer.disconnect();
    this.observers = undefined;
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

LeakAuditEnvironment.filesInWorker = 0;

module.exports = LeakAuditEnvironment;
