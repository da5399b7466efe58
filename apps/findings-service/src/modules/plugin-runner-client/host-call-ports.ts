import type { PluginManifest } from '@platform/plugin-sdk';

/**
 * What the runner asks the findings service during an invocation (docs/plugins/runner-api.md,
 * "Host calls"). Each port answers for the event context the findings service itself started
 * the invocation with — the runner's request names no project. The plugin management issue
 * wires real secret storage, the project's mail and the CVE data; until then every port
 * answers "not configured" explicitly, never a made-up success.
 */
export interface PluginEventContext {
  pluginId: string;
  versionDigest: string;
  projectId: string;
  eventId: string;
  /**
   * The installation as the service read it when it began this event (a notification
   * delivery reads it in its claim): the ports answer from it instead of reading the row again
   * for each host call. Absent: they read it themselves. Never sent to the runner.
   */
  installation?: KnownInstallation;
}

/**
 * One installation and the event's project's configuration of it, as read in one statement
 * at the start of an event (docs/findings-service/notifications.md, "Reads per delivery").
 */
export interface KnownInstallation {
  artifactSha256: string;
  enabled: boolean;
  /** The installed version's validated manifest (its settings schema). */
  manifest: PluginManifest;
  /** Non-secret installation settings. */
  settings: Record<string, unknown>;
  /** The installation's secret settings, sealed as stored. */
  secretSettings: string | null;
  /** The project's settings of the plugin; null when the project has no configuration. */
  projectSettings: Record<string, unknown> | null;
  /** The project's secret settings, sealed as stored. */
  projectSecretSettings: string | null;
}

/** Secret-marked settings of the installed plugin and of the event's project. */
export interface PluginSecretsPort {
  /** The installation's secret `name`; undefined when it has no value. */
  getSecret(context: PluginEventContext, name: string): Promise<string | undefined>;
  /** The secret `name` for `context.projectId`; undefined when it has no value. */
  getProjectSecret(context: PluginEventContext, name: string): Promise<string | undefined>;
}

/** Mail to the recipients configured for the event's project (the plugin names none). */
export interface PluginMailPort {
  send(
    context: PluginEventContext,
    message: { subject: string; body: string },
  ): Promise<{ messageId: string }>;
}

/** Which CVE identifiers the service knows (identifiers only). */
export interface CveCatalogPort {
  knownIds(context: PluginEventContext, ids: string[]): Promise<string[]>;
}

/**
 * The DI token of the CveCatalogPort the enrichment module provides globally
 * (modules/enrichment/cve-catalog.module.ts); the plugins module injects it optionally, so it
 * needs no import of the enrichment module (which depends on it).
 */
export const CVE_CATALOG_PORT = Symbol('CVE_CATALOG_PORT');

export interface HostCallPorts {
  secrets: PluginSecretsPort;
  mail: PluginMailPort;
  cve: CveCatalogPort;
}

/** Nothing answers this host call yet: answered as `not_configured`. */
export class HostCallNotConfigured extends Error {
  constructor(what: string) {
    super(`${what} is not configured in the findings service`);
    this.name = 'HostCallNotConfigured';
  }
}

/** The call is refused for this plugin or project: answered as `denied`. */
export class HostCallDenied extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostCallDenied';
  }
}

/** The ports before the plugin management issue: every call is "not configured". */
export const NOT_CONFIGURED_PORTS: HostCallPorts = {
  secrets: {
    getSecret: () => Promise.reject(new HostCallNotConfigured('plugin secret storage')),
    getProjectSecret: () => Promise.reject(new HostCallNotConfigured('plugin secret storage')),
  },
  mail: { send: () => Promise.reject(new HostCallNotConfigured('project mail')) },
  cve: { knownIds: () => Promise.reject(new HostCallNotConfigured('the CVE catalogue')) },
};

const openedOf = new WeakMap<
  KnownInstallation,
  Partial<Record<'installation' | 'project', Record<string, string>>>
>();

/**
 * The installation's or the project's secret settings of `known`, opened (decrypted) once per
 * event whichever port asks first; kept only as long as the event's KnownInstallation.
 */
export function openedSecrets(
  known: KnownInstallation,
  which: 'installation' | 'project',
  open: (sealed: string | null) => Record<string, string>,
): Record<string, string> {
  let opened = openedOf.get(known);
  if (!opened) openedOf.set(known, (opened = {}));
  return (opened[which] ??= open(
    which === 'installation' ? known.secretSettings : known.projectSecretSettings,
  ));
}
