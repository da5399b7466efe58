import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ProjectPluginConfig } from '../plugin-channels/project-plugin-config';
import type { InstalledPlugin } from '../plugins/installed-plugins/installed-plugin';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';
import { PluginRunnerClientError } from '../plugin-runner-client/plugin-runner-client.errors';
import { PluginRunnerClient } from '../plugin-runner-client/plugin-runner.client';
import { shownPluginText } from '../plugin-runner-client/plugin-answer-refusals';
import { TicketSettingsRepository, type StoredTicketSettings } from './ticket-settings.repository';
import { TicketsError } from './tickets.errors';

export const PROVIDER_ERROR_KINDS = [
  'unreachable',
  'unauthorized',
  'not-found',
  'misconfigured',
  'rejected',
] as const;
export type ProviderErrorKind = (typeof PROVIDER_ERROR_KINDS)[number];

/** The service's `_ticket` member of `settings-json` (the WIT finding has no title or link). */
export interface TicketContext {
  title: string;
  findings: { id: string; title: string; url: string }[];
  label: string;
  target: string | null;
}

/** A project's provider, ready to call: the installation and the project's settings. */
export interface ProjectProvider {
  plugin: InstalledPlugin;
  settings: StoredTicketSettings;
  /** Installation settings overridden by the project's (the event's `settings-json`). */
  effective: Record<string, unknown>;
}

/**
 * Calls a project's ticketing provider in the runner (one `ticketing-provider` operation per
 * call). A `provider-error` becomes 422 `ticket_provider_error` with its kind; a runner that
 * cannot be reached 503; any other failed call (trap, deadline) a provider error `unreachable`.
 */
@Injectable()
export class TicketProviderGateway {
  constructor(
    private readonly settings: TicketSettingsRepository,
    private readonly projectConfig: ProjectPluginConfig,
    private readonly plugins: InstalledPluginsService,
    private readonly runner: PluginRunnerClient,
  ) {}

  /** The project's enabled provider; 422 `ticket_provider_not_configured` otherwise. */
  async forProject(projectId: string): Promise<ProjectProvider> {
    const settings = await this.settings.get(projectId);
    const plugin = settings ? await this.plugins.get(settings.pluginId).catch(() => null) : null;
    if (!settings || !plugin?.enabled || !plugin.capabilities.includes('ticketing_provider')) {
      throw new TicketsError('ticket_provider_not_configured');
    }
    const own = await this.projectConfig.view(projectId, plugin.id);
    return { plugin, settings, effective: { ...plugin.settings, ...own.settings } };
  }

  /** The project's enabled provider, or null when it has none (not configured, disabled). */
  async forProjectIfConfigured(projectId: string): Promise<ProjectProvider | null> {
    try {
      return await this.forProject(projectId);
    } catch (error) {
      if (error instanceof TicketsError && error.code === 'ticket_provider_not_configured') {
        return null;
      }
      throw error;
    }
  }

  /**
   * One operation. `eventId` (default: a new `ticket:<uuid>`) lets calls of one piece of work
   * of the same project share the runner's instance of that event (the backfill's calls of one
   * page and lane); the runner never gives an event's instance to another project.
   */
  async call<T>(
    provider: ProjectProvider,
    operation: string,
    payload: Record<string, unknown>,
    ticket?: TicketContext,
    eventId = `ticket:${randomUUID()}`,
  ): Promise<T> {
    const { plugin } = provider;
    const invocation = () => ({
      context: {
        pluginId: plugin.id,
        versionDigest: plugin.artifactSha256,
        projectId: provider.settings.projectId,
        eventId,
      },
      capability: 'ticketing_provider',
      operation,
      payload,
      settings: ticket ? { ...provider.effective, _ticket: ticket } : provider.effective,
    });
    try {
      // The installation was read (enabled, at this digest) by forProject: not read again per call.
      const { generation } = await this.plugins.ensureLoaded(plugin.id, {
        knownDigest: plugin.artifactSha256,
      });
      let result = await this.runner.invoke(invocation());
      if (!result.ok && result.error.code === 'not_loaded') {
        await this.plugins.ensureLoaded(plugin.id, { force: true, seenGeneration: generation });
        result = await this.runner.invoke(invocation());
      }
      if (result.ok) return result.value as T;
      throw providerError(result.error);
    } catch (error) {
      if (error instanceof PluginRunnerClientError) {
        throw new TicketsError('service_unavailable', { reason: 'plugin runner unavailable' });
      }
      throw error;
    }
  }
}

/** The `provider-error` variant (`{tag, val}`) of a failed call, else `unreachable`. */
function providerError(error: { code: string; message: string; detail?: unknown }): TicketsError {
  const variant = error.detail as { tag?: unknown; val?: unknown } | null | undefined;
  const kind =
    error.code === 'plugin_error' &&
    typeof variant?.tag === 'string' &&
    (PROVIDER_ERROR_KINDS as readonly string[]).includes(variant.tag)
      ? (variant.tag as ProviderErrorKind)
      : 'unreachable';
  const message =
    typeof variant?.val === 'string' ? variant.val : `${error.code}: ${error.message}`;
  // The envelope's `details.reason` carries the kind; the provider's text is its `problem`.
  return new TicketsError('ticket_provider_error', {
    kind,
    reason: kind,
    problem: shownPluginText(message, 500),
  });
}

/** The `detail.kind` of a provider error; null for anything else (runner down, database). */
export function providerErrorKind(error: unknown): string | null {
  if (!(error instanceof TicketsError) || error.code !== 'ticket_provider_error') return null;
  const kind = (error.details as { kind?: unknown } | undefined)?.kind;
  return typeof kind === 'string' ? kind : 'unreachable';
}

/**
 * The wait a provider asked for: its `unreachable` error reads `retry-after:<seconds>` when the
 * tracker rate-limited the call (the sandbox has no clock, so the service waits). Null for any
 * other error.
 */
export function providerRetryAfterSeconds(error: unknown): number | null {
  return providerRateLimit(error)?.seconds ?? null;
}

/** A tracker's rate-limit answer as the provider reported it. */
export interface ProviderRateLimit {
  /** `Retry-After`, in seconds (a fraction allowed). */
  seconds: number;
  /**
   * The tracker's own refill rate in requests per second, when it sent one (Jira's token-bucket
   * headers `X-RateLimit-FillRate` per `X-RateLimit-Interval-Seconds`, reported by the provider
   * as ` rate:<tokens>/<seconds>` after the wait); null otherwise.
   */
  perSecond: number | null;
}

const RATE_LIMITED = /^retry-after:(\d{1,6}(?:\.\d{1,3})?)(?: rate:(\d{1,7})\/(\d{1,6}))?\b/;

/** The rate-limit answer carried by a provider's `unreachable` error; null for anything else. */
export function providerRateLimit(error: unknown): ProviderRateLimit | null {
  if (providerErrorKind(error) !== 'unreachable') return null;
  const problem = (error as TicketsError).details?.['problem'];
  const match = typeof problem === 'string' ? RATE_LIMITED.exec(problem) : null;
  if (!match) return null;
  const tokens = Number(match[2]);
  const interval = Number(match[3]);
  return {
    seconds: Number(match[1]),
    perSecond: tokens > 0 && interval > 0 ? tokens / interval : null,
  };
}
