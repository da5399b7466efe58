import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { artifactDigest, type PluginManifest } from '@platform/plugin-sdk';
import { buildPlugin, componentCacheDir, examplePluginDir } from '@platform/plugin-sdk/build';
import pino, { type Logger } from 'pino';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from '../../../src/app/config/sandbox.config';
import type { EgressGuard } from '@platform/egress';
import type { HostCallLimits } from '../../../src/host-calls/plugin-host-calls';
import type {
  HostCallBroker,
  HostCallContext,
  InvocationRequest,
  JsonValue,
  LoadedArtifact,
  OutgoingEmail,
  PluginHostObserver,
} from '../../../src/plugin-host/plugin-host';
import { WasmPluginHost } from '../../../src/wasm/wasm-plugin-host';

/** Componentizing one plugin takes 6-30 s on a quiet machine, minutes on a loaded one. */
export const BUILD_TIMEOUT_MS = 300_000;

export interface TestComponent {
  component: Buffer;
  manifest: PluginManifest;
  /** The exact bytes of manifest.json as the build wrote them (what a publisher signs). */
  manifestBytes: Buffer;
  digest: string;
}

const PLUGIN_DIRS = {
  /** The runner's test plugin: `finding.rule` picks a behaviour (test/wasm/plugins/probe). */
  probe: join(__dirname, '../plugins/probe'),
  /** The SDK's example enricher. */
  'zone-enricher': examplePluginDir('zone-enricher'),
};

/**
 * A real component built by the SDK build command (cached by content hash under the stack
 * state directory, so only the first run after a change of the plugin componentizes).
 * `enableWasi` leaves WASI features on: such a component imports wasi:* interfaces.
 */
export async function testComponent(
  name: keyof typeof PLUGIN_DIRS,
  options: { enableWasi?: string[] } = {},
): Promise<TestComponent> {
  const out = await mkdtemp(join(tmpdir(), `wasm-${name}-`));
  try {
    const built = await buildPlugin({
      sourceDir: PLUGIN_DIRS[name],
      outDir: out,
      cacheDir: componentCacheDir(process.env),
      timeoutMs: BUILD_TIMEOUT_MS,
      ...(options.enableWasi ? { enableWasi: options.enableWasi } : {}),
    });
    return {
      component: built.component,
      manifest: built.manifest,
      manifestBytes: built.manifestBytes,
      digest: built.sha256,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** What the findings service would load for an installation of `component`. */
export function artifactOf(
  built: TestComponent,
  pluginId: string,
  permittedHosts: string[] = [],
): LoadedArtifact {
  return {
    pluginId,
    manifest: built.manifest,
    versionDigest: artifactDigest(built.component),
    artifact: built.component,
    permittedHosts,
    source: { signed: true, allowsNative: false },
  };
}

/**
 * The findings service's side of the host calls (N3's stream broker forwards them there):
 * secrets per installation and per project, e-mails recorded, a set of known CVEs. Answers
 * only what it holds for the asking context, as the service does.
 */
export class RecordingBroker implements HostCallBroker {
  readonly installationSecrets = new Map<string, string>();
  readonly projectSecrets = new Map<string, string>();
  readonly emails: { context: HostCallContext; message: OutgoingEmail }[] = [];
  readonly asked: { call: string; context: HostCallContext; argument: unknown }[] = [];
  knownCves = new Set<string>();
  private gate: Promise<void> | undefined;

  /** Secrets are answered only after the returned function is called (calls in flight). */
  hold(): () => void {
    let release = () => undefined as void;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.gate = undefined;
      release();
    };
  }

  setSecret(pluginId: string, name: string, value: string): void {
    this.installationSecrets.set(`${pluginId}/${name}`, value);
  }

  setProjectSecret(pluginId: string, projectId: string, name: string, value: string): void {
    this.projectSecrets.set(`${pluginId}/${projectId}/${name}`, value);
  }

  getSecret(context: HostCallContext, name: string): Promise<string | undefined> {
    this.asked.push({ call: 'get-secret', context, argument: name });
    const value = this.installationSecrets.get(`${context.pluginId}/${name}`);
    return (this.gate ?? Promise.resolve()).then(() => value);
  }

  getProjectSecret(context: HostCallContext, name: string): Promise<string | undefined> {
    this.asked.push({ call: 'get-project-secret', context, argument: name });
    return Promise.resolve(
      this.projectSecrets.get(`${context.pluginId}/${context.projectId}/${name}`),
    );
  }

  sendEmail(context: HostCallContext, message: OutgoingEmail): Promise<void> {
    this.emails.push({ context, message });
    return Promise.resolve();
  }

  isCveKnown(context: HostCallContext, cveIds: string[]): Promise<string[]> {
    this.asked.push({ call: 'is-cve-known', context, argument: cveIds });
    return Promise.resolve(cveIds.filter((id) => this.knownCves.has(id)));
  }
}

/** Every line the runner logged, parsed, plus the raw text (for "never appears" checks). */
export class CapturedLog {
  readonly lines: Record<string, unknown>[] = [];
  raw = '';
  readonly logger: Logger;

  constructor() {
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        const text = chunk.toString('utf8');
        this.raw += text;
        for (const line of text.split('\n').filter(Boolean)) {
          this.lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    this.logger = pino({ level: 'debug' }, sink);
  }

  /** Lines a plugin wrote through the `log` host call. */
  pluginLines(pluginId?: string): Record<string, unknown>[] {
    return this.lines.filter(
      (l) => l['source'] === 'plugin' && (pluginId === undefined || l['plugin_id'] === pluginId),
    );
  }
}

/** An observer that keeps every event. */
export class RecordingObserver implements PluginHostObserver {
  readonly invocations: Parameters<PluginHostObserver['invocationFinished']>[0][] = [];
  readonly denials: Parameters<PluginHostObserver['hostCallDenied']>[0][] = [];
  invocationFinished(event: Parameters<PluginHostObserver['invocationFinished']>[0]): void {
    this.invocations.push(event);
  }
  hostCallDenied(event: Parameters<PluginHostObserver['hostCallDenied']>[0]): void {
    this.denials.push(event);
  }
  poolChanged(): void {
    // not needed by the tests
  }
}

/** An egress guard for tests that make no http-request: any call fails the test. */
export const NO_EGRESS: EgressGuard = {
  request: () => Promise.reject(new Error('this test makes no http-request')),
};

export interface TestHost {
  host: WasmPluginHost;
  broker: RecordingBroker;
  log: CapturedLog;
  observer: RecordingObserver;
}

export function startTestHost(
  options: {
    limits?: Partial<SandboxLimits>;
    egress?: EgressGuard;
    hostCallLimits?: HostCallLimits;
    eventInstanceIdleMs?: number;
  } = {},
): TestHost {
  const broker = new RecordingBroker();
  const log = new CapturedLog();
  const observer = new RecordingObserver();
  const host = new WasmPluginHost({
    limits: { ...DEFAULT_SANDBOX_LIMITS, ...options.limits },
    broker,
    egress: options.egress ?? NO_EGRESS,
    logger: log.logger,
    observer,
    ...(options.hostCallLimits ? { hostCallLimits: options.hostCallLimits } : {}),
    ...(options.eventInstanceIdleMs !== undefined
      ? { eventInstanceIdleMs: options.eventInstanceIdleMs }
      : {}),
  });
  return { host, broker, log, observer };
}

/** A finding as the WIT record takes it (optional fields absent). */
export function finding(rule: string, description = '', extra: Record<string, JsonValue> = {}) {
  return {
    id: 'f-1',
    severity: 'HIGH',
    rule,
    description,
    scanner: 'test',
    status: 'open',
    ...extra,
  };
}

/** An `enrich` call of the probe for one event. */
export function enrichCall(
  artifact: LoadedArtifact,
  rule: string,
  description = '',
  overrides: Partial<InvocationRequest> = {},
): InvocationRequest {
  return {
    pluginId: artifact.pluginId,
    versionDigest: artifact.versionDigest,
    projectId: 'project-a',
    eventId: `event-${Math.random().toString(36).slice(2)}`,
    capability: 'finding_enricher',
    operation: 'enrich',
    payload: { finding: finding(rule, description) },
    settings: {},
    ...overrides,
  };
}

/**
 * How the probe shows a secret it read: reversed (`rev:...`), since the runner replaces the
 * secret value itself by `[redacted]` in every answer of the plugin.
 */
export function shownSecret(value: string): string {
  return `rev:${[...value].reverse().join('')}`;
}

/** The tags of a successful enrich answer as a map. */
export function tagsOf(result: { ok: boolean; value?: JsonValue }): Record<string, string> {
  if (!result.ok) throw new Error(`the call failed: ${JSON.stringify(result)}`);
  return Object.fromEntries(
    (result.value as { key: string; value: string }[]).map((t) => [t.key, t.value]),
  );
}
