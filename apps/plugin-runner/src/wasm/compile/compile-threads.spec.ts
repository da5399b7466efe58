import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FROM_SOURCES_NODE_OPTIONS, runScriptFromSources } from '@platform/testing';
import { PluginLoadError } from '../../plugin-host/plugin-host';
import { CompileThreadPool } from './compile-threads';

/**
 * A stand-in for threads/compile-thread.mjs with the same protocol: it answers its thread id
 * as the glue and its node options as the imports; `hang` busy-loops (appending to a file, so
 * the test sees when it stops), `slow` takes 500 ms, `refuse` answers ok: false.
 */
const FAKE_THREAD = `
import { parentPort, threadId } from 'node:worker_threads';
import { appendFileSync } from 'node:fs';
parentPort.on('message', ({ component }) => {
  const [what, file] = Buffer.from(component).toString().split(' ');
  if (what === 'hang') {
    for (let last = 0; ; ) if (Date.now() - last > 10) { last = Date.now(); appendFileSync(file, '.'); }
  }
  if (what === 'slow') { const until = Date.now() + 500; while (Date.now() < until); }
  if (what === 'refuse') return parentPort.postMessage({ ok: false, message: 'not a component' });
  parentPort.postMessage({
    ok: true, glue: String(threadId), coreModules: [], imports: process.execArgv, exports: [],
    witImports: [], witExports: [],
  });
});
`;

const bytes = (text: string) => new TextEncoder().encode(text);

describe('CompileThreadPool', () => {
  let dir: string;
  let script: string;
  const pools: CompileThreadPool[] = [];
  const pool = (threads: number, idleMs: number) => {
    const made = new CompileThreadPool({ threads, idleMs }, script);
    pools.push(made);
    return made;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'compile-threads-'));
    script = join(dir, 'fake-compile-thread.mjs');
    writeFileSync(script, FAKE_THREAD);
  });

  afterEach(async () => {
    pools.splice(0).forEach((made) => made.stopIdle());
    // Terminated threads need a moment to exit before the leak audit looks.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('transpiles one load after another on the same thread', async () => {
    const threads = pool(2, 60_000);
    const first = await threads.transpile(bytes('a'), 5_000);
    const second = await threads.transpile(bytes('b'), 5_000);
    expect(second.glue).toBe(first.glue);
    expect(threads.stats()).toEqual({ started: 1, alive: 1, idle: 1 });
  });

  it('starts the thread with none of the node options of the runner', async () => {
    // A runner run from sources (`node -r @swc-node/register ...`): its compile threads must
    // not load the TypeScript compiler too. The stand-in answers its own process.execArgv.
    const child = `
      const { CompileThreadPool } = require('./apps/plugin-runner/src/wasm/compile/compile-threads');
      const threads = new CompileThreadPool({ threads: 1, idleMs: 0 }, ${JSON.stringify(script)});
      threads.transpile(new TextEncoder().encode('a'), 30000)
        .then((out) => console.log(JSON.stringify([process.execArgv, out.imports])));`;
    const stdout = await runScriptFromSources(child);
    const [runnerOptions, threadOptions] = JSON.parse(stdout.trim()) as [string[], string[]];
    expect(runnerOptions.slice(0, 3)).toEqual(FROM_SOURCES_NODE_OPTIONS);
    expect(threadOptions).toEqual([]);
  });

  it('terminates a thread whose transpile runs past its time-out and starts a new one', async () => {
    const threads = pool(1, 60_000);
    const first = await threads.transpile(bytes('a'), 5_000);
    const beat = join(dir, 'hang-beat');
    writeFileSync(beat, '');
    const refusal = await threads.transpile(bytes(`hang ${beat}`), 300).catch((e: Error) => e);
    expect(refusal).toBeInstanceOf(PluginLoadError);
    expect(refusal).toMatchObject({
      code: 'artifact_invalid',
      message: 'transpiling took over 300 ms',
    });
    // The hung thread stops: its file stops growing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const size = statSync(beat).size;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(statSync(beat).size).toBe(size);
    const next = await threads.transpile(bytes('b'), 5_000);
    expect(next.glue).not.toBe(first.glue);
    expect(threads.stats()).toEqual({ started: 2, alive: 1, idle: 1 });
  });

  it('does not give a thread another component after it refused one', async () => {
    const threads = pool(1, 60_000);
    const first = await threads.transpile(bytes('a'), 5_000);
    await expect(threads.transpile(bytes('refuse'), 5_000)).rejects.toMatchObject({
      code: 'artifact_invalid',
      message: 'not a WebAssembly component this host can run: not a component',
    });
    expect((await threads.transpile(bytes('b'), 5_000)).glue).not.toBe(first.glue);
  });

  it('runs at most PLUGIN_RUNNER_COMPILE_THREADS transpiles at once; the wait is not timed', async () => {
    const threads = pool(1, 60_000);
    await threads.transpile(bytes('a'), 5_000);
    // Each takes 500 ms of a 900 ms time-out: the second passes only if its wait is not counted.
    const both = await Promise.all([
      threads.transpile(bytes('slow'), 900),
      threads.transpile(bytes('slow'), 900),
    ]);
    expect(both[1].glue).toBe(both[0].glue);
    expect(threads.stats().started).toBe(1);
  });

  it('stops a thread idle for PLUGIN_RUNNER_COMPILE_THREAD_IDLE_SECONDS', async () => {
    const threads = pool(2, 100);
    await threads.transpile(bytes('a'), 5_000);
    expect(threads.stats()).toMatchObject({ alive: 1, idle: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(threads.stats()).toMatchObject({ alive: 0, idle: 0 });
    await threads.transpile(bytes('b'), 5_000);
    expect(threads.stats().started).toBe(2);
  });

  it('with an idle time of 0 stops the thread after every transpile (one thread per load)', async () => {
    const threads = pool(2, 0);
    const first = await threads.transpile(bytes('a'), 5_000);
    expect(threads.stats()).toMatchObject({ alive: 0, idle: 0 });
    expect((await threads.transpile(bytes('b'), 5_000)).glue).not.toBe(first.glue);
  });
});
