import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const WORKSPACE = join(__dirname, '../../..');
const ENVIRONMENT = join(WORKSPACE, 'tools/test/leak-audit-environment.js');

/** Runs Jest on one planted spec file with the workspace's test environment. */
async function runPlanted(
  spec: string,
  env: Record<string, string> = {},
): Promise<{ report: string; stderr: string; elapsedMs: number; cpu: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'planted-leak-'));
  const report = join(dir, 'leaks.txt');
  const cpu = join(dir, 'cpu.jsonl');
  writeFileSync(join(dir, 'planted.test.js'), spec);
  writeFileSync(
    join(dir, 'jest.config.js'),
    `module.exports = { testEnvironment: ${JSON.stringify(ENVIRONMENT)} };`,
  );
  writeFileSync(report, '');
  writeFileSync(cpu, '');
  const started = Date.now();
  try {
    const { stderr } = await promisify(execFile)(
      process.execPath,
      [join(WORKSPACE, 'node_modules/jest/bin/jest.js'), '--ci', '--watchman=false'],
      {
        cwd: dir,
        env: { ...process.env, TEST_LEAK_REPORT: report, TEST_FILE_CPU: cpu, ...env },
        timeout: 60_000,
      },
    );
    return {
      report: readFileSync(report, 'utf8'),
      stderr,
      elapsedMs: Date.now() - started,
      cpu: readFileSync(cpu, 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the leak audit names the test file that leaves a process or server open', () => {
  it('reports and stops a child process and a listening server, and Jest exits', async () => {
    const { report, elapsedMs } = await runPlanted(`
      const { spawn } = require('node:child_process');
      const { createServer } = require('node:net');
      test('leaks', async () => {
        spawn('sleep', ['600']);
        await new Promise((resolve) => createServer().listen(0, '127.0.0.1', resolve));
      });
    `);
    expect(report).toMatch(/^planted\.test\.js: child process \d+ sleep 600; Server listening on /);
    expect(elapsedMs).toBeLessThan(30_000);
  }, 60_000);

  it('says nothing about a file that closes what it opened', async () => {
    const { report } = await runPlanted(`
      const { spawn } = require('node:child_process');
      test('tidy', async () => {
        const child = spawn('sleep', ['600']);
        await new Promise((resolve) => { child.on('exit', resolve); child.kill(); });
      });
    `);
    expect(report).toBe('');
  }, 60_000);

  it('names a client socket the file left connected (not failed: stopping it could crash its owner)', async () => {
    const { report, stderr } = await runPlanted(`
      const { connect, createServer } = require('node:net');
      test('leaves a connection', async () => {
        const server = createServer();
        await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
        const socket = connect(server.address().port, '127.0.0.1');
        await new Promise((resolve) => server.once('connection', resolve));
        server.close();
        setTimeout(() => socket.destroy(), 4_000).unref();
      });
    `);
    expect(stderr).toMatch(
      /test may hold the worker open: planted\.test\.js: socket to 127\.0\.0\.1:\d+/,
    );
    expect(report).toBe('');
  }, 60_000);
});

describe('the environment records what a test file cost in CPU (tools/test/slowest.js)', () => {
  it('counts the file’s own CPU and its finished child processes', async () => {
    // 0.5 s of CPU in the worker and as much in a child process (however busy the machine is),
    // and 1.5 s of waiting.
    const { cpu } = await runPlanted(`
      const { execFileSync } = require('node:child_process');
      const burn =
        "const t = process.cpuUsage(); let x = 0;" +
        "for (let u = { user: 0, system: 0 }; u.user + u.system < 500000; u = process.cpuUsage(t))" +
        "  for (let i = 0; i < 1e5; i++) x += i;";
      test('works and waits', async () => {
        new Function(burn)();
        execFileSync(process.execPath, ['-e', burn]);
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }, 30_000);
    `);
    const [line, ...rest] = cpu.trim().split('\n');
    expect(rest).toEqual([]);
    const recorded = JSON.parse(line) as { file: string; cpu: number };
    expect(recorded.file).toBe('planted.test.js');
    // Both halves counted, the timer's 1.5 s not (slack for a loaded machine's scheduling).
    expect(recorded.cpu).toBeGreaterThanOrEqual(1);
    expect(recorded.cpu).toBeLessThan(2.4);
  }, 60_000);
});

/**
 * Runs four planted files in one Jest process (-i) with the workspace's environment and returns
 * the heap Jest measured (after a GC) at the end of each.
 */
async function heapAfterEachFile(spec: string): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'planted-heap-'));
  const heap = join(dir, 'heap.txt');
  try {
    for (const name of ['a', 'b', 'c', 'd']) writeFileSync(join(dir, `${name}.test.js`), spec);
    writeFileSync(
      join(dir, 'heap-reporter.js'),
      `module.exports = class {
        onTestResult(_test, result) {
          require('node:fs').appendFileSync(${JSON.stringify(heap)}, result.memoryUsage + '\\n');
        }
      };`,
    );
    writeFileSync(
      join(dir, 'jest.config.js'),
      `module.exports = { testEnvironment: ${JSON.stringify(ENVIRONMENT)}, reporters: ['<rootDir>/heap-reporter.js'] };`,
    );
    writeFileSync(heap, '');
    const jest = join(WORKSPACE, 'node_modules/jest/bin/jest.js');
    await promisify(execFile)(
      process.execPath,
      ['--expose-gc', jest, '--ci', '--watchman=false', '-i', '--logHeapUsage'],
      { cwd: dir, timeout: 60_000 },
    );
    return readFileSync(heap, 'utf8').trim().split('\n').map(Number);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the environment disconnects the PerformanceObservers a test file left observing', () => {
  it('keeps nothing of a file alive through its observer (prom-client observes gc per registry)', async () => {
    // Each file's observer holds 16 MB: kept, the heap would grow by ~48 MB over the files.
    const heap = await heapAfterEachFile(`
      const { PerformanceObserver } = require('node:perf_hooks');
      const ballast = new Array(2_000_000).fill(1.5);
      test('observes gc and never stops', () => {
        new PerformanceObserver(() => ballast.length).observe({ entryTypes: ['gc'] });
      });
    `);
    expect(heap).toHaveLength(4);
    expect(heap[3] - heap[0]).toBeLessThan(20 * 1024 * 1024);
  }, 60_000);
});

describe('JEST_HEAP_SNAPSHOT_DIR (finding what a test file leaves behind in its worker)', () => {
  it('writes a heap snapshot of the worker as a file starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'planted-snapshots-'));
    try {
      await runPlanted(`test('runs', () => {});`, { JEST_HEAP_SNAPSHOT_DIR: dir });
      const written = readdirSync(dir);
      expect(written).toEqual([expect.stringMatching(/^\d+-1\.heapsnapshot$/)]);
      const head = readFileSync(join(dir, written[0]), 'utf8').slice(0, 20);
      expect(head).toMatch(/^\{"snapshot":/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the environment lets a finished describe block go (a bundle part frees its app)', () => {
  it('frees what the hooks and tests of a finished describe block held', async () => {
    // The planted file fails unless the 16 MB its first block's hooks held are freed before the
    // second block runs.
    await runPlanted(`
      require('node:v8').setFlagsFromString('--expose-gc');
      const gc = require('node:vm').runInNewContext('gc');
      const heapUsed = () => { gc(); return process.memoryUsage().heapUsed; };
      let holding = 0;
      describe('a part', () => {
        let ballast;
        beforeAll(() => { ballast = new Array(2_000_000).fill(1.5); });
        test('uses its ballast', () => {
          expect(ballast).toHaveLength(2_000_000);
          holding = heapUsed();
        });
        afterAll(() => expect(ballast).toHaveLength(2_000_000));
      });
      describe('the next part', () => {
        test('runs without it', () => expect(holding - heapUsed()).toBeGreaterThan(12_000_000));
      });
    `);
  }, 60_000);

  it("still reports a finished block's afterAll failure with its message", async () => {
    const failed = await runPlanted(`
      describe('a part', () => {
        test('passes', () => {});
        afterAll(() => new Promise(() => {}), 300);
      });
      describe('the next part', () => {
        test('passes too', () => {});
      });
    `).then(
      () => null,
      (error: { stderr: string }) => error,
    );
    expect(failed?.stderr).toMatch(/Exceeded timeout of 300 ms for a hook/);
  }, 60_000);
});
