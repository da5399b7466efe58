/**
 * The e-mail channel's settings as the mail sender reads them (docs/findings-service/mail.md).
 * Installation settings (spec names): smtp_host, smtp_port, smtp_username, smtp_password
 * (secret), smtp_from, smtp_tls_mode, allow_project_smtp, smtp_allowed_hosts. A project's own
 * server uses the same fields prefixed `project_` (a manifest cannot declare one name twice,
 * once per installation and once per project), plus recipients and subject_prefix.
 */

export const TLS_MODES = ['none', 'starttls', 'tls'] as const;
export type TlsMode = (typeof TLS_MODES)[number];

const DEFAULT_PORTS: Record<TlsMode, number> = { none: 25, starttls: 587, tls: 465 };
export const MAX_RECIPIENTS = 50;
/** The project-level prefix of the own-server fields. */
export const PROJECT_PREFIX = 'project_';

/** One mail server and the account the service uses on it. */
export interface SmtpServer {
  host: string;
  port: number;
  tlsMode: TlsMode;
  username?: string;
  password?: string;
  from: string;
}

export type Settings = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** `smtp_allowed_hosts`: a list, or one string of names separated by commas/blanks. */
export function allowedHosts(installation: Settings): string[] {
  const raw = installation['smtp_allowed_hosts'];
  const items = Array.isArray(raw) ? raw.map(String) : text(raw).split(/[\s,]+/);
  return items.map((h) => h.trim().toLowerCase().replace(/\.$/, '')).filter((h) => h !== '');
}

/** Why the project may not use its own server `host`, or undefined when it may. */
export function projectServerRefusal(installation: Settings, host: string): string | undefined {
  if (installation['allow_project_smtp'] !== true) {
    return 'the installation does not allow a project mail server (allow_project_smtp is false)';
  }
  const allowed = allowedHosts(installation);
  const wanted = host.trim().toLowerCase().replace(/\.$/, '');
  if (allowed.length > 0 && !allowed.includes(wanted)) {
    return `${wanted} is not in the installation's smtp_allowed_hosts`;
  }
  return undefined;
}

const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** An RFC 5321 mailbox `local@domain` (dot-atom local part, no quoted forms, no display name). */
export function isMailbox(value: string): boolean {
  return value.length <= 254 && ADDRESS.test(value);
}

/** `recipients` (comma/newline separated): 1-50 mailboxes, or the problem. */
export function parseRecipients(
  value: unknown,
): { ok: true; list: string[] } | { ok: false; problem: string } {
  const items = (Array.isArray(value) ? value.map(String) : text(value).split(/[,\n\r]+/))
    .map((r) => r.trim())
    .filter((r) => r !== '');
  if (items.length === 0) return { ok: false, problem: 'at least one recipient is required' };
  if (items.length > MAX_RECIPIENTS) {
    return { ok: false, problem: `at most ${MAX_RECIPIENTS} recipients` };
  }
  const bad = items.find((r) => !isMailbox(r));
  if (bad !== undefined) {
    return { ok: false, problem: `${JSON.stringify(bad.slice(0, 80))} is not an e-mail address` };
  }
  return { ok: true, list: [...new Set(items.map((r) => r.toLowerCase()))] };
}

/** The server fields under `prefix` ('' = installation, 'project_' = project), or the problem. */
export function readServer(
  settings: Settings,
  secrets: Record<string, string>,
  prefix: '' | typeof PROJECT_PREFIX,
): { ok: true; server: SmtpServer | undefined } | { ok: false; field: string; problem: string } {
  const host = text(settings[`${prefix}smtp_host`]);
  if (host === '') return { ok: true, server: undefined };
  const modeRaw = text(settings[`${prefix}smtp_tls_mode`]) || 'starttls';
  if (!(TLS_MODES as readonly string[]).includes(modeRaw)) {
    return {
      ok: false,
      field: `${prefix}smtp_tls_mode`,
      problem: `must be one of ${TLS_MODES.join(', ')}`,
    };
  }
  const tlsMode = modeRaw as TlsMode;
  const portRaw = settings[`${prefix}smtp_port`];
  const port =
    portRaw === undefined || portRaw === null || portRaw === ''
      ? DEFAULT_PORTS[tlsMode]
      : Number(portRaw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { ok: false, field: `${prefix}smtp_port`, problem: 'must be a port number 1-65535' };
  }
  const from = text(settings[`${prefix}smtp_from`]);
  if (!isMailbox(from)) {
    return { ok: false, field: `${prefix}smtp_from`, problem: 'must be an e-mail address' };
  }
  const username = text(settings[`${prefix}smtp_username`]) || undefined;
  const password = secrets[`${prefix}smtp_password`] || undefined;
  return {
    ok: true,
    server: { host: host.toLowerCase(), port, tlsMode, username, password, from },
  };
}

/**
 * Problems of a PUT of a project's e-mail settings (field → message), checked against the
 * installation's settings: recipients, the own server's fields, and whether the project may
 * use that server at all.
 */
export function projectMailProblems(
  installation: Settings,
  settings: Settings,
): Array<{ field: string; problem: string }> {
  const problems: Array<{ field: string; problem: string }> = [];
  if (settings['recipients'] !== undefined && settings['recipients'] !== null) {
    const recipients = parseRecipients(settings['recipients']);
    if (!recipients.ok) problems.push({ field: 'recipients', problem: recipients.problem });
  }
  const prefix = settings['subject_prefix'];
  if (typeof prefix === 'string' && (prefix.length > 100 || /[\r\n\0]/.test(prefix))) {
    problems.push({ field: 'subject_prefix', problem: 'one line of at most 100 characters' });
  }
  const server = readServer(settings, {}, PROJECT_PREFIX);
  if (!server.ok) problems.push({ field: server.field, problem: server.problem });
  else if (server.server) {
    const refusal = projectServerRefusal(installation, server.server.host);
    if (refusal) problems.push({ field: `${PROJECT_PREFIX}smtp_host`, problem: refusal });
  }
  return problems;
}
