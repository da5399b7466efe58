import type { PluginManifest } from '@platform/plugin-sdk';
import {
  FIXTURE_NODE_PATH,
  buildNativeChannelFixture,
  publisherKey,
  signedFixture,
  type FixtureManifestOptions,
  type NativeChannelFixtureVariant,
} from '@platform/plugin-protocol/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { waitFor } from '@platform/testing';
import { DEFAULT_NATIVE_LIMITS, type NativeLimits } from '../../src/native/native-limits';
import { NativePluginHost } from '../../src/native/native-plugin-host';
import type { NativeChannelEvent } from '../../src/native/native-channel';
import type { NativeEgressFlags } from '../../src/native/native-process';
import { HostCallRefused } from '../../src/grpc/stream-host-call-broker';
import type {
  HostCallBroker,
  HostCallContext,
  InvocationRequest,
  LoadedArtifact,
  OutgoingEmail,
} from '../../src/plugin-host/plugin-host';

/** Fast limits for tests: short time-outs, quick restarts, no lease, no periodic health. */
export function testLimits(overrides: Partial<NativeLimits> = {}): NativeLimits {
  return {
    ...DEFAULT_NATIVE_LIMITS,
    handshakeTimeoutMs: 15_000,
    callTimeoutMs: 5_000,
    stopTimeoutMs: 1_000,
    restartBackoffInitialMs: 100,
    restartBackoffMaxMs: 2_000,
    leaseSeconds: 0,
    healthIntervalMs: 0,
    nodePath: FIXTURE_NODE_PATH,
    ...overrides,
  };
}

export const key = publisherKey();

/** A LoadedArtifact of the fixture, as the runner API builds it after its own checks. */
export function fixtureArtifact(
  options: {
    variant?: NativeChannelFixtureVariant;
    build?: string;
    pluginId?: string;
    signed?: boolean;
    allowsNative?: boolean;
    manifest?: FixtureManifestOptions;
    artifact?: Buffer;
  } = {},
): LoadedArtifact {
  const built = buildNativeChannelFixture(options.variant ?? 'normal', options.build);
  const fixture = signedFixture(built, key, options.manifest);
  return {
    pluginId: options.pluginId ?? 'chat-1',
    manifest: fixture.manifest as unknown as PluginManifest,
    versionDigest: fixture.digest,
    artifact: options.artifact ?? fixture.artifact,
    permittedHosts: [],
    source: { signed: options.signed ?? true, allowsNative: options.allowsNative ?? true },
  };
}

/** A broker with per-plugin and per-project secrets held in memory; records every call. */
export class MemoryBroker implements HostCallBroker {
  readonly calls: string[] = [];
  constructor(
    private readonly secrets: Record<string, string> = {},
    private readonly projectSecrets: Record<string, string> = {},
  ) {}

  async getSecret(context: HostCallContext, name: string): Promise<string | undefined> {
    this.calls.push(`get-secret ${context.pluginId} ${name}`);
    return this.secrets[`${context.pluginId}/${name}`];
  }

  async getProjectSecret(context: HostCallContext, name: string): Promise<string | undefined> {
    this.calls.push(`get-project-secret ${context.pluginId} ${context.projectId} ${name}`);
    return this.projectSecrets[`${context.pluginId}/${context.projectId}/${name}`];
  }

  /** E-mails the host forwarded, with the context they were sent for. */
  readonly emails: Array<{ context: HostCallContext; message: OutgoingEmail }> = [];
  /** Set by a test: how the findings service answers SendEmail (default: not configured). */
  mail?: (context: HostCallContext, message: OutgoingEmail) => Promise<string>;

  async sendEmail(context: HostCallContext, message: OutgoingEmail): Promise<string> {
    if (!this.mail) throw new HostCallRefused('not_configured', 'project mail');
    this.emails.push({ context, message });
    return this.mail(context, message);
  }

  async isCveKnown(): Promise<string[]> {
    throw new Error('not configured');
  }
}

export interface HostUnderTest {
  host: NativePluginHost;
  events: Array<{ pluginId: string; event: NativeChannelEvent; at: number }>;
  restarts: Array<{ pluginId: string; reason: string }>;
  statuses: Array<{ pluginId: string; serving: boolean | undefined }>;
  logs: () => string;
}

const hosts: NativePluginHost[] = [];
const dirs: string[] = [];

/** A host with recorded events and logs; closed by `closeHosts` after each test. */
export function startHost(
  limits: NativeLimits,
  broker: HostCallBroker = new MemoryBroker(),
  egress?: NativeEgressFlags,
) {
  const events: HostUnderTest['events'] = [];
  const restarts: HostUnderTest['restarts'] = [];
  const statuses: HostUnderTest['statuses'] = [];
  let logText = '';
  const logger = pino({ level: 'info' }, { write: (line: string) => void (logText += line) });
  const host = new NativePluginHost({
    limits,
    broker,
    logger,
    events: {
      processRestarted: (event) => restarts.push(event),
      statusChanged: (event) => statuses.push(event),
    },
    onChannelEvent: (pluginId, event) => events.push({ pluginId, event, at: Date.now() }),
    egress,
  });
  hosts.push(host);
  return { host, events, restarts, statuses, logs: () => logText } satisfies HostUnderTest;
}

export async function closeHosts(): Promise<void> {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A file the fixture appends every Deliver's idempotency key to. */
export function recordFile(): { path: string; keys: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'native-record-'));
  dirs.push(dir);
  const path = join(dir, 'deliveries.txt');
  return {
    path,
    keys: () => {
      try {
        return readFileSync(path, 'utf8').split('\n').filter(Boolean);
      } catch {
        return [];
      }
    },
  };
}

export function deliverCall(
  artifact: LoadedArtifact,
  overrides: Partial<InvocationRequest> = {},
): InvocationRequest {
  return {
    pluginId: artifact.pluginId,
    versionDigest: artifact.versionDigest,
    projectId: '11111111-1111-4111-8111-111111111111',
    eventId: 'event-1',
    capability: 'notification_channel',
    operation: 'deliver',
    payload: { event: { kind: 'new_findings', count: 3 } },
    settings: { chat_id: '42' },
    idempotencyKey: 'key-1',
    ...overrides,
  };
}

/** True while a process with this pid exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function waitForGone(pid: number, what = `process ${pid} to exit`): Promise<void> {
  return waitFor(
    () => {
      if (processAlive(pid)) throw new Error(`${pid} still running`);
    },
    { timeoutMs: 10_000, what },
  );
}
