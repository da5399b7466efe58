import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor, WaitAborted } from './wait-for';

/** The repository root: entry points are named relative to it. */
export const REPOSITORY_ROOT = join(__dirname, '../../..');

/**
 * The TypeScript options of a process started from sources: tsconfig.base.json's, with one file
 * listed instead of the whole tree (@swc-node/register hashes the list into every module's cache
 * key: tools/test/swc-node-project.json says more).
 */
export const SWC_NODE_PROJECT = join(REPOSITORY_ROOT, 'tools/test/swc-node-project.json');

/** Node's options for a script run from TypeScript sources, as a runner started from sources has. */
export const FROM_SOURCES_NODE_OPTIONS = ['-r', '@swc-node/register', '--no-deprecation'];

/**
 * Runs `script` (CommonJS, paths relative to the repository root) in a child `node` started
 * from sources with FROM_SOURCES_NODE_OPTIONS and only PATH and SWC_NODE_PROJECT in its
 * environment; resolves its stdout. For tests of what such a process passes on to its threads.
 */
export async function runScriptFromSources(script: string, timeoutMs = 60_000): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...FROM_SOURCES_NODE_OPTIONS, '-e', script],
    {
      cwd: REPOSITORY_ROOT,
      env: { PATH: process.env.PATH ?? '', SWC_NODE_PROJECT },
      timeout: timeoutMs,
    },
  );
  return stdout;
}

/**
 * The environment of a plugin runner started as its own process (`apps/plugin-runner/src/main.ts`
 * as `startServiceProcess`'s entry), as `npm run up` starts it: production mode, JSON lines at
 * info on stdout (tests wait for `plugin-runner serving`), loopback, every port picked by the
 * system. `extra` adds to it or overrides it.
 */
export function pluginRunnerProcessEnv(
  token: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    APP_ENV: 'production',
    LOG_FILE_SINK_ENABLED: 'false',
    LOG_LEVEL: 'info',
    PLUGIN_RUNNER_HOST: '127.0.0.1',
    PLUGIN_RUNNER_PORT: '0',
    PLUGIN_RUNNER_GRPC_PORT: '0',
    METRICS_HOST: '127.0.0.1',
    METRICS_PORT: '0',
    PLUGIN_RUNNER_TOKEN: token,
    ...extra,
  };
}

/**
 * The gRPC port of a plugin runner process started with `pluginRunnerProcessEnv`, read from its
 * `plugin-runner serving` line once it has printed it (its output so far in the error if not).
 */
export async function pluginRunnerGrpcPort(
  runner: ServiceProcess,
  timeoutMs: number,
): Promise<number> {
  const serving = await waitFor(
    () => {
      const line = runner.jsonLines().find((l) => l['msg'] === 'plugin-runner serving');
      if (!line) throw new Error(`runner output so far:\n${runner.output()}`);
      return line;
    },
    { timeoutMs, what: 'the runner to serve' },
  );
  return serving['grpc_port'] as number;
}

export type ProcessEnd = { code: number | null; signal: NodeJS.Signals | null };

/** A service entry point running as a child process, its stdout and stderr collected. */
export interface ServiceProcess {
  child: ChildProcess;
  /** Where it serves HTTP, when it does (`http://127.0.0.1:<port>`). */
  url?: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** The JSON log lines of the output. */
  jsonLines(): Record<string, unknown>[];
  running(): boolean;
  /** Its end, once the pipes are drained too ('close': the last lines are in `output()`). */
  ended: Promise<ProcessEnd>;
  /** SIGTERM, then the end: true when it shut down cleanly (exit 0, or Nest re-raising SIGTERM). */
  stop(): Promise<boolean>;
  /** SIGKILL (unless it has ended already), then the end. */
  kill(): Promise<void>;
}

export type ServiceProcessOptions = (
  | { /** TypeScript entry point, run through @swc-node/register. */ entry: string }
  | { /** A built bundle, run as `node <file>` from its own folder. */ bundle: string }
) & {
  /**
   * The environment besides PATH and the run's transpile cache (`transpileCacheEnv`): nothing
   * else is inherited unless passed here.
   */
  env: Record<string, string | undefined>;
  /** Where it will serve HTTP (the port is in `env`). */
  url?: string;
  /** Node flags before the entry (benches: `--cpu-prof --cpu-prof-dir=DIR`). */
  nodeArgs?: string[];
};

/**
 * `PLUGIN_RUNNER_TRANSPILE_CACHE_DIR` of this process, when set: `npm test` (tools/test.sh)
 * sets one directory per run, so the plugin runners of all its test files share what jco made.
 */
export function transpileCacheEnv(): Record<string, string> {
  const dir = process.env['PLUGIN_RUNNER_TRANSPILE_CACHE_DIR'];
  return dir ? { PLUGIN_RUNNER_TRANSPILE_CACHE_DIR: dir } : {};
}

/** Starts a service's API or worker entry point as its deployment would, in a child process. */
export function startServiceProcess(options: ServiceProcessOptions): ServiceProcess {
  const fromSources = 'entry' in options;
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...(fromSources ? ['-r', '@swc-node/register', options.entry] : [basename(options.bundle)]),
    ],
    {
      cwd: fromSources ? REPOSITORY_ROOT : dirname(options.bundle),
      env: {
        PATH: process.env.PATH,
        // The test run's shared transpile cache of plugin runners (tools/test.sh), when set.
        ...transpileCacheEnv(),
        ...options.env,
        ...(fromSources ? { SWC_NODE_PROJECT } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const ended = new Promise<ProcessEnd>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    url: options.url,
    output: () => output,
    jsonLines: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    running,
    ended,
    stop: async () => {
      if (running()) child.kill('SIGTERM');
      const { code, signal } = await ended;
      return code === 0 || signal === 'SIGTERM';
    },
    kill: async () => {
      if (running()) child.kill('SIGKILL');
      await ended;
    },
  };
}

/** Waits until `GET <url>/health` answers status ok; stops at once if the process ends. */
export async function waitForHealthy(service: ServiceProcess, timeoutMs: number): Promise<void> {
  const { url } = service;
  if (url === undefined) throw new Error('waitForHealthy needs a process started with its url');
  await waitFor(
    async () => {
      if (!service.running()) {
        throw new WaitAborted(`process exited ${service.child.exitCode}:\n${service.output()}`);
      }
      const res = await fetch(`${url}/health`).catch(() => undefined);
      const health = res?.ok ? ((await res.json()) as { status: string }).status : res?.status;
      if (health !== 'ok') {
        throw new Error(`health ${health ?? 'not listening'}:\n${service.output()}`);
      }
    },
    { timeoutMs, intervalMs: 200, what: `health of ${url}` },
  );
}
