import { type PluginManifest, secretSettingNames } from '@platform/plugin-sdk';
import type { EgressGuard, EgressMethod, EgressRefusalReason } from '@platform/egress';
import type {
  HostCallBroker,
  HostCallContext,
  HostCallName,
  PluginHostObserver,
} from '../plugin-host/plugin-host';
import type { PluginLogSink } from './plugin-log';
import type { SecretScrubber } from '../plugin-host/secret-scrubber';

/** A host call's answer as the WIT `result` of jco's glue (`host-error` variants as `err`). */
export type HostCallAnswer = { tag: 'ok'; val?: unknown } | { tag: 'err'; val: HostError };
export type HostError =
  | { tag: 'denied'; val: string }
  | { tag: 'unavailable'; val: string }
  | { tag: 'invalid'; val: string };

export interface HostCallLimits {
  /** Host calls (all kinds, `log` included) one invocation may make. */
  callsPerInvocation: number;
  /** E-mails one invocation may send. */
  emailsPerInvocation: number;
  emailSubjectMaxChars: number;
  emailBodyMaxBytes: number;
  /** CVE identifiers per `is-cve-known` question. */
  cveIdsPerCall: number;
}

export const DEFAULT_HOST_CALL_LIMITS: HostCallLimits = {
  callsPerInvocation: 1000,
  emailsPerInvocation: 5,
  emailSubjectMaxChars: 200,
  emailBodyMaxBytes: 100 * 1024,
  cveIdsPerCall: 1000,
};

const CVE_ID = /^CVE-\d{4}-\d{4,19}$/;
/** The methods a plugin may use; anything else is the guard's `method_not_allowed` (counted). */
const PLUGIN_METHODS: readonly EgressMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** The service's refusal codes of a host call that are the plugin's to see as they are. */
const SERVICE_REFUSALS: ReadonlySet<string> = new Set(['denied', 'invalid']);
/** Egress refusals the plugin cannot fix by asking differently: the network failed it. */
const UNAVAILABLE: ReadonlySet<EgressRefusalReason> = new Set<EgressRefusalReason>([
  'dns_failed',
  'timeout',
  'connect_failed',
  'tls_failed',
  'body_too_large',
]);
const INVALID: ReadonlySet<EgressRefusalReason> = new Set<EgressRefusalReason>([
  'invalid_url',
  'method_not_allowed',
  'header_not_allowed',
  'request_too_large',
]);

export interface PluginHostCallsDeps {
  manifest: PluginManifest;
  permittedHosts: readonly string[];
  broker: HostCallBroker;
  egress: EgressGuard;
  scrubber: SecretScrubber;
  log: PluginLogSink;
  observer: PluginHostObserver;
  limits: HostCallLimits;
}

/**
 * The host calls of one loaded plugin version, enforced by the runner whatever the guest
 * sends: every argument is checked as untrusted input, the event context comes from the
 * invocation, secrets are limited to the plugin's own secret-marked settings (the project
 * is the event's), every secret value received is registered for scrubbing, and the egress
 * guard is the only way out.
 */
export class PluginHostCalls {
  private readonly secretNames: ReadonlySet<string>;

  constructor(private readonly deps: PluginHostCallsDeps) {
    this.secretNames = new Set(secretSettingNames(deps.manifest));
  }

  /** The handler of one invocation, bound to its event. */
  forInvocation(context: HostCallContext): {
    call(name: string, args: unknown[], logCalls?: number): Promise<HostCallAnswer>;
    log(level: string, message: string): void;
    droppedLogs(lines: number): void;
  } {
    // Host calls made so far: the answered kinds, and `log` — counted from the lines that
    // arrived and from the sandbox's own count (`logCalls`: lines it dropped past its per-call
    // cap are calls the plugin made all the same).
    let calls = 0;
    let logCalls = 0;
    let emails = 0;
    let overLimitReported = false;
    const overLimit = () => calls + logCalls > this.deps.limits.callsPerInvocation;
    const logContext = {
      plugin_id: context.pluginId,
      plugin_version: this.deps.manifest.version,
      project_id: context.projectId,
      event_id: context.eventId,
    };
    return {
      call: async (name, args, logCallsSoFar = 0) => {
        calls += 1;
        logCalls = Math.max(logCalls, logCallsSoFar);
        if (overLimit()) {
          return this.deny(context, name, 'calls_per_invocation', 'too many host calls');
        }
        switch (name) {
          case 'get-secret':
            return this.getSecret(context, args[0], 'installation');
          case 'get-project-secret':
            return this.getSecret(context, args[0], 'project');
          case 'http-request':
            return this.httpRequest(context, args[0]);
          case 'send-email':
            if (++emails > this.deps.limits.emailsPerInvocation) {
              return this.deny(context, name, 'emails_per_invocation', 'too many e-mails');
            }
            return this.sendEmail(context, args[0]);
          case 'is-cve-known':
            return this.isCveKnown(context, args[0]);
          default:
            return invalid(`unknown host call ${name}`);
        }
      },
      // A log line is a host call too (docs: 1 000 per invocation): past the limit it is
      // dropped, and the denial is reported once.
      log: (level, message) => {
        logCalls += 1;
        if (overLimit()) {
          if (!overLimitReported) {
            overLimitReported = true;
            this.deny(context, 'log', 'calls_per_invocation', 'too many host calls');
          }
          this.deps.log.countDropped(logContext, 1);
          return;
        }
        this.deps.log.write(logContext, level, message);
      },
      droppedLogs: (lines) => this.deps.log.countDropped(logContext, lines),
    };
  }

  private async getSecret(
    context: HostCallContext,
    name: unknown,
    scope: 'installation' | 'project',
  ): Promise<HostCallAnswer> {
    const call: HostCallName = scope === 'project' ? 'get-project-secret' : 'get-secret';
    if (typeof name !== 'string' || !this.secretNames.has(name)) {
      return this.deny(
        context,
        call,
        'not_a_secret_setting',
        `${JSON.stringify(String(name).slice(0, 100))} is not a secret setting of this plugin`,
      );
    }
    let value: string | undefined;
    try {
      value =
        scope === 'project'
          ? await this.deps.broker.getProjectSecret(context, name)
          : await this.deps.broker.getSecret(context, name);
    } catch (error) {
      // The service's own refusal (not a secret of this plugin, not per-project, another
      // version) is `denied`, as documented; anything else is `unavailable`.
      return serviceRefusal(error) ?? unavailable('the service did not answer');
    }
    if (value === undefined) return { tag: 'ok', val: undefined };
    if (typeof value !== 'string') return unavailable('the service answered no text');
    this.deps.scrubber.add(value);
    return { tag: 'ok', val: value };
  }

  private async httpRequest(context: HostCallContext, request: unknown): Promise<HostCallAnswer> {
    if (!isRecord(request)) return invalid('the request must be a record');
    const { method, url, headers, body } = request;
    // The method and the URL's length are the guard's checks, so that a CONNECT or an
    // over-long URL is counted among its refusals (plugin_runner_egress_denials_total).
    if (typeof method !== 'string') {
      return invalid('method must be GET, HEAD, POST, PUT, PATCH or DELETE');
    }
    if (typeof url !== 'string') return invalid('url must be a URL');
    if (
      !Array.isArray(headers) ||
      headers.length > 100 ||
      !headers.every(
        (h) => isRecord(h) && typeof h.name === 'string' && typeof h.value === 'string',
      )
    ) {
      return invalid('headers must be a list of at most 100 name/value pairs');
    }
    if (body !== undefined && body !== null && typeof body !== 'string') {
      return invalid('body must be text');
    }
    const outcome = await this.deps.egress.request(
      {
        caller: context.pluginId,
        permittedHosts: this.deps.permittedHosts,
        methods: PLUGIN_METHODS,
      },
      {
        method: method.toUpperCase(),
        url,
        headers: (headers as { name: string; value: string }[]).map((h) => [h.name, h.value]),
        ...(typeof body === 'string' ? { body: Buffer.from(body, 'utf8') } : {}),
      },
    );
    if (!outcome.ok) {
      const message = `${outcome.reason}: ${outcome.message}`;
      if (UNAVAILABLE.has(outcome.reason)) return unavailable(message);
      if (INVALID.has(outcome.reason)) return invalid(message);
      return { tag: 'err', val: { tag: 'denied', val: message } };
    }
    return {
      tag: 'ok',
      val: {
        status: outcome.status,
        headers: outcome.headers.map(([name, value]) => ({ name, value })),
        body: Buffer.from(outcome.body).toString('utf8'),
      },
    };
  }

  private async sendEmail(context: HostCallContext, message: unknown): Promise<HostCallAnswer> {
    const limits = this.deps.limits;
    if (!isRecord(message)) return invalid('the message must be a record');
    const { subject, body } = message;
    if (
      typeof subject !== 'string' ||
      subject.length === 0 ||
      subject.length > limits.emailSubjectMaxChars ||
      /[\r\n\0]/.test(subject)
    ) {
      return invalid(`subject must be one line of 1-${limits.emailSubjectMaxChars} characters`);
    }
    if (typeof body !== 'string' || Buffer.byteLength(body, 'utf8') > limits.emailBodyMaxBytes) {
      return invalid(`body must be text of at most ${limits.emailBodyMaxBytes} bytes`);
    }
    try {
      await this.deps.broker.sendEmail(context, { subject, body });
    } catch {
      return unavailable('the service did not send the e-mail');
    }
    return { tag: 'ok', val: undefined };
  }

  private async isCveKnown(context: HostCallContext, ids: unknown): Promise<HostCallAnswer> {
    if (!Array.isArray(ids) || ids.length > this.deps.limits.cveIdsPerCall) {
      return invalid(`cve-ids must be a list of at most ${this.deps.limits.cveIdsPerCall}`);
    }
    const asked = new Set<string>();
    for (const id of ids) {
      const normalized = typeof id === 'string' ? id.trim().toUpperCase() : '';
      if (!CVE_ID.test(normalized)) {
        return invalid(`${JSON.stringify(String(id).slice(0, 40))} is not a CVE identifier`);
      }
      asked.add(normalized);
    }
    if (asked.size === 0) return { tag: 'ok', val: [] };
    let known: unknown;
    try {
      known = await this.deps.broker.isCveKnown(context, [...asked]);
    } catch {
      return unavailable('the service did not answer');
    }
    // The answer holds identifiers only — and only those that were asked about.
    const answer = Array.isArray(known)
      ? [
          ...new Set(
            known
              .filter((id): id is string => typeof id === 'string')
              .map((id) => id.trim().toUpperCase())
              .filter((id) => asked.has(id)),
          ),
        ]
      : [];
    return { tag: 'ok', val: answer };
  }

  private deny(
    context: HostCallContext,
    call: string,
    reason: string,
    message: string,
  ): HostCallAnswer {
    this.deps.observer.hostCallDenied({
      pluginId: context.pluginId,
      call: call as HostCallName,
      reason,
    });
    return { tag: 'err', val: { tag: 'denied', val: message } };
  }
}

/** The findings service's refusal of a host call (HostCallRefused), as the plugin sees it. */
function serviceRefusal(error: unknown): HostCallAnswer | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !SERVICE_REFUSALS.has(code)) return undefined;
  const message = error instanceof Error ? error.message : code;
  return { tag: 'err', val: { tag: code as 'denied' | 'invalid', val: message } };
}

function invalid(message: string): HostCallAnswer {
  return { tag: 'err', val: { tag: 'invalid', val: message } };
}

function unavailable(message: string): HostCallAnswer {
  return { tag: 'err', val: { tag: 'unavailable', val: message } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
