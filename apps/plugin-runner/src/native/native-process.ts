import {
  credentials,
  status as GrpcStatus,
  type Client,
  type Server,
  type ServiceError,
} from '@grpc/grpc-js';
import {
  CHANNEL_HOST_SOCKET_ENV,
  CHANNEL_PROTOCOL_VERSION,
  NATIVE_MAGIC_COOKIE_KEY,
  NATIVE_MAGIC_COOKIE_VALUE,
  NATIVE_PROTOCOL_VERSIONS_KEY,
  NATIVE_SOCKET_DIR_KEY,
  loadChannelService,
  loadHealthService,
  parseHandshakeLine,
  type DeliverRequest,
  type DeliverResponse,
  type HealthCheckResponse,
  type ServingStatus,
} from '@platform/plugin-protocol';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmod, lstat, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { escapeControlCharacters } from '@platform/logging';
import type { Logger } from 'pino';
import { PluginLoadError } from '../plugin-host/plugin-host';
import { startChannelHostServer, type ChannelHostDeps } from './channel-host-server';
import { LineSplitter } from './line-splitter';
import type { NativeLimits } from './native-limits';
import { nativeCommand, type NativeProgram } from './native-program';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How a stop ended: already gone, after Shutdown, after SIGTERM, or killed. */
export type StopStep = 'exited' | 'shutdown' | 'sigterm' | 'sigkill';

export interface NativeTools {
  /** The Node binary that runs `node` programs (the runner's own). */
  nodePath: string;
  /** prlimit(1), when installed: RLIMIT_AS for other executables. */
  prlimitPath?: string;
}

export interface NativeProcessOptions {
  pluginId: string;
  program: NativeProgram;
  limits: NativeLimits;
  tools: NativeTools;
  logger: Logger;
  /** Replaces every secret value the plugin was given (its output goes to the runner's log). */
  scrub(text: string): string;
  /** Called once when the process exits without `stop()` or `kill()` having asked for it. */
  onUnexpectedExit(process: NativeProcess, exit: ProcessExit): void;
  /** Host calls served to the process on `<dir>/host.sock` (none: no host socket). */
  hostCalls?: Pick<ChannelHostDeps, 'tokens' | 'broker'>;
  /** The runner's egress relaxations, mirrored as FINDSVC_PLUGIN_EGRESS_ALLOW_*. */
  egress?: NativeEgressFlags;
}

/** PLUGIN_EGRESS_ALLOW_HTTP / _ALLOW_LOCAL_DIAL of the runner. */
export interface NativeEgressFlags {
  allowHttp: boolean;
  allowLocalDial: boolean;
}

/** Name of the runner's host-call socket inside the private directory. */
export const HOST_SOCKET_NAME = 'host.sock';

interface ChannelClient extends Client {
  Deliver(
    request: DeliverRequest,
    options: { deadline: number },
    callback: (error: ServiceError | null, response?: DeliverResponse) => void,
  ): void;
  Shutdown(
    request: Record<string, never>,
    options: { deadline: number },
    callback: (error: ServiceError | null) => void,
  ): void;
}

interface HealthClient extends Client {
  Check(
    request: { service: string },
    options: { deadline: number },
    callback: (error: ServiceError | null, response?: HealthCheckResponse) => void,
  ): void;
}

const MAX_LINE = 2000;
const STDERR_TAIL = 20;
/** Plugin output lines logged per window; the rest are counted and reported once. */
const LOG_LINES_PER_WINDOW = 50;
const LOG_WINDOW_MS = 10_000;
const HEALTH_RETRY_MS = 50;
const KILL_WAIT_MS = 5_000;

/** Only these reach the plugin: no runner variables (tokens, database URLs), no NODE_OPTIONS. */
function pluginEnvironment(
  dir: string,
  limits: NativeLimits,
  program: NativeProgram,
  options: Pick<NativeProcessOptions, 'hostCalls' | 'egress'>,
) {
  const env: Record<string, string> = {
    [NATIVE_MAGIC_COOKIE_KEY]: NATIVE_MAGIC_COOKIE_VALUE,
    [NATIVE_PROTOCOL_VERSIONS_KEY]: String(CHANNEL_PROTOCOL_VERSION),
    [NATIVE_SOCKET_DIR_KEY]: dir,
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: dir,
    TMPDIR: dir,
    LANG: 'C.UTF-8',
  };
  if (program.kind === 'node' && limits.nodePath) env['NODE_PATH'] = limits.nodePath;
  if (options.hostCalls) env[CHANNEL_HOST_SOCKET_ENV] = join(dir, HOST_SOCKET_NAME);
  env['FINDSVC_PLUGIN_EGRESS_ALLOW_HTTP'] = String(options.egress?.allowHttp ?? false);
  env['FINDSVC_PLUGIN_EGRESS_ALLOW_LOCAL_DIAL'] = String(options.egress?.allowLocalDial ?? false);
  return env;
}

/**
 * One running native plugin process (tier 2, docs/plugins/native.md): its private 0700
 * directory with the verified copy of the program and the unix socket, the child with a
 * minimal environment and stdin held open, the handshake line, the gRPC clients.
 */
export class NativeProcess {
  readonly startedAt = Date.now();
  readonly exited: Promise<ProcessExit>;
  private exitInfo?: ProcessExit;
  private expectingExit = false;
  /** Set once the start succeeded: from then on an exit is reported to the supervisor. */
  private supervised = false;
  private released = false;
  private channel?: ChannelClient;
  private health?: HealthClient;
  /** The ChannelHost server on `<dir>/host.sock` (when host calls are offered). */
  hostServer?: Server;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly stderrTail: string[] = [];
  private logWindowStart = 0;
  private logLinesInWindow = 0;
  private droppedLines = 0;
  private handshakeLine?: (line: string) => void;
  private stopping?: Promise<StopStep>;

  private constructor(
    private readonly options: NativeProcessOptions,
    readonly directory: string,
    private readonly child: ChildProcessWithoutNullStreams,
  ) {
    let settle: (exit: ProcessExit) => void = () => undefined;
    this.exited = new Promise((resolveExit) => (settle = resolveExit));
    const exited = (exit: ProcessExit) => {
      if (this.exitInfo) return;
      this.exitInfo = exit;
      settle(exit);
      if (!this.expectingExit && this.supervised) options.onUnexpectedExit(this, exit);
    };
    child.once('exit', (code, signal) => exited({ code, signal }));
    child.once('error', (error) => {
      this.stderrTail.push(`spawn failed: ${error.message}`);
      // A child that never started emits no 'exit'.
      if (child.pid === undefined) exited({ code: null, signal: null });
    });
    child.stdin.on('error', () => undefined);
    const stdout = new LineSplitter(MAX_LINE, (line) => {
      const handshake = this.handshakeLine;
      if (handshake) {
        this.handshakeLine = undefined;
        handshake(line);
      } else {
        this.log('stdout', line);
      }
    });
    const stderr = new LineSplitter(MAX_LINE, (line) => {
      this.stderrTail.push(line);
      if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
      this.log('stderr', line);
    });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  }

  /**
   * Writes the verified program into a new private directory, starts it, waits for the
   * handshake line and a SERVING health check (both within PLUGIN_NATIVE_HANDSHAKE_TIMEOUT_MS).
   * On any failure the child is killed, the directory removed, and a PluginLoadError
   * (`plugin_start_failed`) says why.
   */
  static async start(options: NativeProcessOptions): Promise<NativeProcess> {
    const deadline = Date.now() + options.limits.handshakeTimeoutMs;
    const dir = await mkdtemp(join(tmpdir(), 'findsvc-plugin-'));
    let started: NativeProcess | undefined;
    let hostServer: Server | undefined;
    try {
      await chmod(dir, 0o700);
      if (options.hostCalls) {
        hostServer = await startChannelHostServer(join(dir, HOST_SOCKET_NAME), {
          ...options.hostCalls,
          pluginId: options.pluginId,
          scrub: options.scrub,
        });
      }
      const file = join(dir, options.program.kind === 'node' ? 'plugin.js' : 'plugin');
      await writeFile(file, options.program.bytes, { mode: 0o500 });
      const { command, args } = nativeCommand(options.program, file, options.limits, options.tools);
      const child = spawn(command, args, {
        cwd: dir,
        env: pluginEnvironment(dir, options.limits, options.program, options),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      started = new NativeProcess(options, dir, child);
      started.hostServer = hostServer;
      await started.handshake(deadline);
      started.supervised = true;
      if (started.hasExited) throw new Error('exited right after its health check');
      return started;
    } catch (error) {
      if (started) await started.kill();
      else {
        hostServer?.forceShutdown();
        await rm(dir, { recursive: true, force: true });
      }
      if (error instanceof PluginLoadError) throw error;
      throw new PluginLoadError(
        'plugin_start_failed',
        `plugin ${options.pluginId}: ${options.scrub((error as Error).message)}`,
      );
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  get busy(): boolean {
    return this.inFlight > 0;
  }

  /** One Deliver call with its deadline; rejects with the gRPC ServiceError. */
  deliver(request: DeliverRequest, timeoutMs: number): Promise<DeliverResponse> {
    const channel = this.channel;
    if (!channel || this.released) {
      return Promise.reject(this.unavailable('the plugin process is gone'));
    }
    this.inFlight += 1;
    return new Promise<DeliverResponse>((resolveCall, rejectCall) => {
      channel.Deliver(request, { deadline: Date.now() + timeoutMs }, (error, response) => {
        if (error) rejectCall(error);
        else resolveCall(response as DeliverResponse);
      });
    }).finally(() => {
      this.inFlight -= 1;
      if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    });
  }

  /** `grpc.health.v1.Health/Check` for the whole plugin (`""`). */
  check(timeoutMs: number): Promise<ServingStatus> {
    const health = this.health;
    if (!health || this.released)
      return Promise.reject(this.unavailable('the plugin process is gone'));
    return new Promise((resolveCheck, rejectCheck) => {
      health.Check({ service: '' }, { deadline: Date.now() + timeoutMs }, (error, response) => {
        if (error) rejectCheck(error);
        else resolveCheck(response?.status ?? 'UNKNOWN');
      });
    });
  }

  /** Closes the plugin's stdin, as a runner that went away would (the plugin must exit). */
  closeStdin(): void {
    this.child.stdin.end();
  }

  /**
   * Stops the process: calls in flight finish first (at most PLUGIN_NATIVE_CALL_TIMEOUT_MS),
   * then the Shutdown RPC, SIGTERM after PLUGIN_NATIVE_STOP_TIMEOUT_MS, SIGKILL after
   * another; then stdin is closed, the clients too, and the private directory removed.
   */
  stop(): Promise<StopStep> {
    this.stopping ??= (async () => {
      this.expectingExit = true;
      await this.idle(this.options.limits.callTimeoutMs);
      const step = await this.terminate();
      await this.release();
      return step;
    })();
    return this.stopping;
  }

  /** SIGKILL now (a failed start, a failed health check); the exit is expected. */
  async kill(): Promise<void> {
    this.expectingExit = true;
    if (!this.hasExited && this.child.pid !== undefined) {
      this.child.kill('SIGKILL');
      await this.waitExit(KILL_WAIT_MS);
    }
    await this.release();
  }

  /** SIGKILL without marking the exit expected: the supervisor restarts (health failure). */
  killUnexpectedly(): void {
    if (!this.hasExited) this.child.kill('SIGKILL');
  }

  /** Closes the clients and stdin and removes the private directory (idempotent). */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.channel?.close();
    this.health?.close();
    this.hostServer?.forceShutdown();
    this.child.stdin.destroy();
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    await rm(this.directory, { recursive: true, force: true });
  }

  private async terminate(): Promise<StopStep> {
    if (this.hasExited || this.child.pid === undefined) return 'exited';
    const { stopTimeoutMs } = this.options.limits;
    const until = Date.now() + stopTimeoutMs;
    await this.shutdownRpc(until).catch(() => undefined);
    if (await this.waitExit(until - Date.now())) return 'shutdown';
    this.child.kill('SIGTERM');
    if (await this.waitExit(stopTimeoutMs)) return 'sigterm';
    this.child.kill('SIGKILL');
    await this.waitExit(KILL_WAIT_MS);
    return 'sigkill';
  }

  private shutdownRpc(until: number): Promise<void> {
    const channel = this.channel;
    if (!channel) return Promise.resolve();
    return new Promise((resolveCall, rejectCall) => {
      channel.Shutdown({}, { deadline: until }, (error) =>
        error ? rejectCall(error) : resolveCall(),
      );
    });
  }

  /** True when the process exits within `ms` (a failed call waits for the crash to be seen). */
  waitExit(ms: number): Promise<boolean> {
    if (this.hasExited) return Promise.resolve(true);
    return new Promise((resolveWait) => {
      const timer = setTimeout(() => resolveWait(false), Math.max(0, ms));
      void this.exited.then(() => {
        clearTimeout(timer);
        resolveWait(true);
      });
    });
  }

  private idle(ms: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolveIdle) => {
      const timer = setTimeout(resolveIdle, ms);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolveIdle();
      });
    });
  }

  private async handshake(deadline: number): Promise<void> {
    const { handshakeTimeoutMs } = this.options.limits;
    const line = await new Promise<string>((resolveLine, rejectLine) => {
      const timer = setTimeout(
        () => rejectLine(new Error(`no handshake line on stdout within ${handshakeTimeoutMs} ms`)),
        Math.max(0, deadline - Date.now()),
      );
      this.handshakeLine = (text) => {
        clearTimeout(timer);
        resolveLine(text);
      };
      void this.exited.then((exit) => {
        clearTimeout(timer);
        rejectLine(
          new Error(
            `exited before its handshake (code ${exit.code}, signal ${exit.signal})${this.stderrSummary()}`,
          ),
        );
      });
    });
    let handshake;
    try {
      handshake = parseHandshakeLine(line);
    } catch (error) {
      throw new Error(`bad handshake line: ${(error as Error).message}`);
    }
    const socket = resolve(handshake.address);
    if (dirname(socket) !== this.directory) {
      throw new Error(`the handshake names a socket outside the plugin's private directory`);
    }
    if (socket === join(this.directory, HOST_SOCKET_NAME)) {
      throw new Error(`the handshake names the runner's host-call socket`);
    }
    const stat = await lstat(socket).catch(() => undefined);
    if (!stat?.isSocket()) throw new Error(`the handshake's socket does not exist or is no socket`);

    const target = `unix:${socket}`;
    const Channel = loadChannelService();
    const Health = loadHealthService();
    this.channel = new Channel(target, credentials.createInsecure()) as unknown as ChannelClient;
    this.health = new Health(target, credentials.createInsecure()) as unknown as HealthClient;

    let last = 'no answer';
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new Error(`health check not SERVING within ${handshakeTimeoutMs} ms (last: ${last})`);
      }
      if (this.hasExited) throw new Error(`exited during its health check${this.stderrSummary()}`);
      try {
        const status = await this.check(Math.min(remaining, 1000));
        if (status === 'SERVING') return;
        last = status;
      } catch (error) {
        last = (error as Error).message;
      }
      await new Promise((wake) => setTimeout(wake, HEALTH_RETRY_MS));
    }
  }

  private stderrSummary(): string {
    if (this.stderrTail.length === 0) return '';
    return `; stderr: ${this.options.scrub(this.stderrTail.join(' | ')).slice(0, 1000)}`;
  }

  private log(stream: 'stdout' | 'stderr', line: string): void {
    const now = Date.now();
    if (now - this.logWindowStart >= LOG_WINDOW_MS) {
      if (this.droppedLines > 0) {
        this.options.logger.warn(
          { plugin_id: this.options.pluginId, pid: this.child.pid, dropped: this.droppedLines },
          'plugin output lines dropped (rate cap)',
        );
      }
      this.logWindowStart = now;
      this.logLinesInWindow = 0;
      this.droppedLines = 0;
    }
    if (this.logLinesInWindow >= LOG_LINES_PER_WINDOW) {
      this.droppedLines += 1;
      return;
    }
    this.logLinesInWindow += 1;
    const fields = { plugin_id: this.options.pluginId, pid: this.child.pid, stream };
    const text = escapeControlCharacters(this.options.scrub(line));
    if (stream === 'stderr') this.options.logger.warn(fields, text);
    else this.options.logger.info(fields, text);
  }

  private unavailable(details: string): ServiceError {
    return Object.assign(new Error(details), {
      code: GrpcStatus.UNAVAILABLE,
      details,
      metadata: undefined as never,
    }) as ServiceError;
  }
}
