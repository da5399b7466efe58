import { Worker } from 'node:worker_threads';
import { PluginLoadError } from '../../plugin-host/plugin-host';
import { threadScript } from '../threads/thread-scripts';

/** What the compile thread answers for a component it could transpile (compile-thread.mjs). */
export interface TranspiledComponent {
  ok: true;
  glue: string;
  coreModules: [string, Uint8Array][];
  imports: string[];
  exports: string[];
  witImports: string[];
  witExports: string[];
}

type ThreadAnswer = TranspiledComponent | { ok: false; message: string };

export interface CompileThreadSettings {
  /** PLUGIN_RUNNER_COMPILE_THREADS: transpiles at once; further loads wait for a thread. */
  threads: number;
  /** PLUGIN_RUNNER_COMPILE_THREAD_IDLE_SECONDS (as ms): an idle thread stops after this long. */
  idleMs: number;
}

export const DEFAULT_COMPILE_THREAD_SETTINGS: CompileThreadSettings = {
  threads: 2,
  idleMs: 60_000,
};

interface Job {
  component: Uint8Array;
  timeoutMs: number;
  resolve(output: TranspiledComponent): void;
  reject(error: Error): void;
}

/** One compile thread: a worker that transpiles the components it is sent, one at a time. */
class CompileThread {
  private readonly worker: Worker;
  private job: Job | undefined;
  private timer: NodeJS.Timeout | undefined;
  dead = false;

  constructor(
    script: string,
    private readonly ended: (thread: CompileThread, reusable: boolean) => void,
  ) {
    this.worker = new Worker(script, {
      env: {},
      // Not the runner's node options: a runner run from sources with `-r @swc-node/register`
      // would load the TypeScript compiler into the thread too (~0.3 s of CPU per thread).
      execArgv: [],
    });
    this.worker.on('message', (answer: ThreadAnswer) => this.answered(answer));
    this.worker.on('error', (error) => this.died(error.message));
    this.worker.on('exit', (code) => this.died(`the compile thread exited (${code})`));
  }

  get threadId(): number {
    return this.worker.threadId;
  }

  run(job: Job): void {
    this.job = job;
    this.worker.ref();
    this.timer = setTimeout(() => {
      this.fail(
        new PluginLoadError('artifact_invalid', `transpiling took over ${job.timeoutMs} ms`),
      );
    }, job.timeoutMs);
    this.worker.postMessage({ component: job.component });
  }

  /** Idle in the pool: does not keep the process alive. */
  rest(): void {
    this.worker.unref();
  }

  stop(): void {
    this.dead = true;
    void this.worker.terminate();
  }

  private answered(answer: ThreadAnswer): void {
    const job = this.take();
    if (!job) return;
    if (answer.ok) {
      job.resolve(answer);
      this.ended(this, true);
    } else {
      // jco refused the bytes: the thread is not given another component (its state after a
      // failure is not trusted); the next load starts a fresh one.
      this.stop();
      job.reject(
        new PluginLoadError(
          'artifact_invalid',
          `not a WebAssembly component this host can run: ${answer.message}`,
        ),
      );
      this.ended(this, false);
    }
  }

  /** A time-out or a crash: the thread is terminated, never reused. */
  private fail(error: PluginLoadError): void {
    const job = this.take();
    this.stop();
    job?.reject(error);
    this.ended(this, false);
  }

  private died(message: string): void {
    if (this.dead && !this.job) return;
    if (this.job) {
      this.fail(new PluginLoadError('artifact_invalid', message));
    } else {
      this.dead = true;
      this.ended(this, false);
    }
  }

  private take(): Job | undefined {
    clearTimeout(this.timer);
    const job = this.job;
    this.job = undefined;
    return job;
  }
}

/**
 * The runner's compile threads: long-lived workers that transpile components with jco. A
 * fresh thread's first transpile of a 12 MB componentize-js component costs ~1.7 s of CPU,
 * the next ones ~0.6 s (V8 has compiled and tiered up jco's own WebAssembly by then), so a
 * thread is kept for the next load until it has been idle `idleMs`. A thread only ever
 * receives component bytes; one whose transpile failed, timed out or crashed is terminated
 * and replaced. A transpile's time-out starts when a thread takes it, not while it waits.
 */
export class CompileThreadPool {
  private readonly threads = new Set<CompileThread>();
  private readonly idle: { thread: CompileThread; timer: NodeJS.Timeout }[] = [];
  private readonly queue: Job[] = [];
  private started = 0;

  constructor(
    private settings: CompileThreadSettings = DEFAULT_COMPILE_THREAD_SETTINGS,
    private readonly script: string = threadScript('compile-thread'),
  ) {}

  configure(settings: CompileThreadSettings): void {
    this.settings = settings;
    while (this.idle.length > 0 && this.threads.size > settings.threads) this.retireIdle();
    this.pump();
  }

  transpile(component: Uint8Array, timeoutMs: number): Promise<TranspiledComponent> {
    return new Promise((resolve, reject) => {
      this.queue.push({ component, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  /** Threads started so far, alive now and idle now (tests, benchmarks). */
  stats(): { started: number; alive: number; idle: number } {
    return { started: this.started, alive: this.threads.size, idle: this.idle.length };
  }

  /** Stops the idle threads (runner stop); a busy one stops when its transpile ends. */
  stopIdle(): void {
    while (this.idle.length > 0) this.retireIdle();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const thread = this.takeIdle() ?? this.startThread();
      if (!thread) return;
      thread.run(this.queue.shift() as Job);
    }
  }

  private takeIdle(): CompileThread | undefined {
    const entry = this.idle.pop();
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    return entry.thread;
  }

  private startThread(): CompileThread | undefined {
    if (this.threads.size >= this.settings.threads) return undefined;
    const thread = new CompileThread(this.script, (ended, reusable) => this.ended(ended, reusable));
    this.threads.add(thread);
    this.started += 1;
    return thread;
  }

  private ended(thread: CompileThread, reusable: boolean): void {
    const keep =
      reusable &&
      !thread.dead &&
      this.settings.idleMs > 0 &&
      this.threads.size <= this.settings.threads;
    if (keep) {
      thread.rest();
      const timer = setTimeout(() => this.retire(thread), this.settings.idleMs);
      timer.unref();
      this.idle.push({ thread, timer });
    } else {
      this.retire(thread);
    }
    this.pump();
  }

  /** Terminates a thread (if it is not dead already) and forgets it. */
  private retire(thread: CompileThread): void {
    const index = this.idle.findIndex((entry) => entry.thread === thread);
    if (index >= 0) clearTimeout(this.idle.splice(index, 1)[0].timer);
    this.threads.delete(thread);
    if (!thread.dead) thread.stop();
  }

  private retireIdle(): void {
    this.retire(this.idle[0].thread);
  }
}
