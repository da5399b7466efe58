// The provider kit of the catalog's ticketing providers (jira-provider, github-provider,
// trello-provider): settings and secrets, the host HTTP call with rate-limit and error mapping,
// the task text rendered from a finding, labels and the configuration check's rules. Each
// provider directory links this file as `provider-kit.js`; the SDK's build copies the linked
// content into the component (docs/plugins/build.md, "Shared files").
import { getProjectSecret, getSecret, httpRequest } from 'findsvc:plugin/host@0.1.0';

export const MAX_PAGES = 100;
export const MAX_GROUP_FINDINGS = 500;
export const DEFAULT_RETRY_AFTER_SECONDS = 60;
export const PLACEHOLDERS = [
  'title',
  'severity',
  'rule',
  'scanner',
  'status',
  'cve',
  'cwe',
  'host',
  'ip',
  'port',
  'file_path',
  'component',
  'component_version',
  'url',
  'label',
];

export function fail(tag, text) {
  return { tag, val: String(text).slice(0, 500) };
}

export function describeError(error) {
  const payload = error && error.payload !== undefined ? error.payload : error;
  if (payload && typeof payload === 'object' && 'tag' in payload) {
    return `${payload.tag}: ${payload.val}`;
  }
  return String(payload);
}

export function settingsOf(ctx) {
  let settings;
  try {
    settings = JSON.parse(ctx.settingsJson);
  } catch {
    throw fail('misconfigured', 'settings are not JSON');
  }
  if (!settings || typeof settings !== 'object' || Array.isArray(settings)) {
    throw fail('misconfigured', 'settings are not a JSON object');
  }
  return settings;
}

export function requiredSetting(settings, name) {
  const value = settings[name];
  if (value === undefined || value === null || value === '') {
    throw fail('misconfigured', `setting ${name} is required`);
  }
  return String(value);
}

/** The project's secret first (a per-project override), else the installation's. */
export function secretOf(name) {
  let value;
  try {
    value = getProjectSecret(name);
  } catch {
    value = undefined;
  }
  if (value) return value;
  try {
    return getSecret(name) || undefined;
  } catch (error) {
    throw fail('misconfigured', `${name}: ${describeError(error)}`);
  }
}

/** A setting that is a JSON value (an object or a list), given as JSON or as its text. */
export function jsonSetting(settings, name, fallback) {
  let value = settings[name];
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw fail('misconfigured', `setting ${name} is not JSON`);
    }
  }
  return value;
}

/** `labels` as a list of names: a JSON list or comma-separated text. */
export function labelList(settings) {
  const value = settings.labels;
  if (Array.isArray(value)) return value.map(String).filter(Boolean);
  if (typeof value === 'string' && value.trim() !== '') {
    if (value.trim().startsWith('[')) return jsonSetting(settings, 'labels', []).map(String);
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }
  return [];
}

export function trimSlash(url) {
  return String(url).replace(/\/+$/, '');
}

export function header(response, name) {
  const found = response.headers.find((h) => h.name.toLowerCase() === name);
  return found ? found.value : undefined;
}

/** Seconds to wait from `Retry-After` (seconds, or an HTTP date measured by the answer's own `Date`). */
export function retryAfterSeconds(response) {
  const value = header(response, 'retry-after');
  if (value !== undefined && /^\s*\d+\s*$/.test(value)) return Number(value);
  const now = Date.parse(header(response, 'date') || '');
  if (value !== undefined) {
    const at = Date.parse(value);
    if (!Number.isNaN(at) && !Number.isNaN(now)) return Math.max(0, Math.ceil((at - now) / 1000));
  }
  const reset = header(response, 'x-ratelimit-reset');
  if (reset !== undefined && /^\d+$/.test(reset) && !Number.isNaN(now)) {
    return Math.max(0, Number(reset) - Math.floor(now / 1000));
  }
  return DEFAULT_RETRY_AFTER_SECONDS;
}

/**
 * ` rate:<tokens>/<seconds>` from `X-RateLimit-FillRate` and `X-RateLimit-Interval-Seconds`
 * (a token bucket's refill, as Jira Data Center sends it); empty without both.
 */
export function refillRate(response) {
  const tokens = header(response, 'x-ratelimit-fillrate');
  const seconds = header(response, 'x-ratelimit-interval-seconds');
  const whole = (value) => value !== undefined && /^\s*[1-9]\d{0,6}\s*$/.test(value);
  return whole(tokens) && whole(seconds) ? ` rate:${tokens.trim()}/${seconds.trim()}` : '';
}

export function isRateLimited(response) {
  if (response.status === 429) return true;
  return response.status === 403 && header(response, 'x-ratelimit-remaining') === '0';
}

/**
 * One call to the tracker. `what` names it in errors (never the URL: a query may hold a key).
 * Answers the parsed JSON (undefined for an empty body); every failure is a provider-error.
 */
export function call(what, request) {
  let response;
  try {
    response = httpRequest({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
  } catch (error) {
    const text = describeError(error);
    throw fail(
      text.startsWith('denied') || text.startsWith('invalid') ? 'misconfigured' : 'unreachable',
      `${what}: ${text}`,
    );
  }
  const status = response.status;
  if (isRateLimited(response)) {
    // The sandbox has no clock to wait with: the service waits (backfill and sync jobs), and
    // keeps to the tracker's refill rate when it tells it (Jira's token-bucket headers).
    throw fail('unreachable', `retry-after:${retryAfterSeconds(response)}${refillRate(response)}`);
  }
  if (status >= 300 && status < 400)
    throw fail('unreachable', `${what}: redirected (HTTP ${status})`);
  if (status === 401 || status === 403) throw fail('unauthorized', `${what}: HTTP ${status}`);
  if (status === 404) throw fail('not-found', `${what}: HTTP 404`);
  if (status >= 500) throw fail('unreachable', `${what}: HTTP ${status}`);
  if (status < 200 || status >= 300) {
    throw fail('rejected', `${what}: HTTP ${status}${apiMessage(response.body)}`);
  }
  if (response.body === '' || status === 204) return { response, json: undefined };
  try {
    return { response, json: JSON.parse(response.body) };
  } catch {
    throw fail('unreachable', `${what}: unexpected answer (not JSON)`);
  }
}

/** The tracker's own short error text of a 4xx answer, when it is JSON. */
export function apiMessage(body) {
  let parsed;
  try {
    parsed = JSON.parse(body);
  } catch {
    return '';
  }
  const parts = [];
  if (parsed && Array.isArray(parsed.errorMessages)) parts.push(...parsed.errorMessages);
  if (
    parsed &&
    parsed.errors &&
    typeof parsed.errors === 'object' &&
    !Array.isArray(parsed.errors)
  ) {
    for (const [k, v] of Object.entries(parsed.errors)) parts.push(`${k}: ${v}`);
  }
  if (parsed && typeof parsed.message === 'string') parts.push(parsed.message);
  const text = parts.map(String).join('; ').slice(0, 200);
  return text ? ` (${text})` : '';
}

/** The `_ticket` member the service adds to the settings (docs/plugins/catalog-plugins.md). */
export function ticketOf(settings) {
  const t = settings._ticket;
  return t && typeof t === 'object' && !Array.isArray(t) ? t : {};
}

export function findingLabel(settings, finding) {
  const t = ticketOf(settings);
  return typeof t.label === 'string' && t.label ? t.label : `findsvc-${finding.id}`;
}

export function valuesOf(settings, finding, label) {
  const t = ticketOf(settings);
  const known = Array.isArray(t.findings)
    ? t.findings.find((f) => f && f.id === finding.id)
    : undefined;
  const text = (v) => (v === undefined || v === null ? '' : String(v));
  return {
    title: text(
      (known && known.title) ||
        (t.title && !Array.isArray(t.findings) ? t.title : '') ||
        finding.rule,
    ),
    severity: text(finding.severity),
    rule: text(finding.rule),
    scanner: text(finding.scanner),
    status: text(finding.status),
    cve: text(finding.cve),
    cwe: text(finding.cwe),
    host: text(finding.host),
    ip: text(finding.ip),
    port: text(finding.port),
    file_path: text(finding.filePath),
    component: text(finding.component),
    component_version: text(finding.componentVersion),
    url: text((known && known.url) || finding.url),
    label: text(label),
  };
}

/** `{name}` placeholders replaced; unknown ones stay as written. */
export function render(template, values) {
  return String(template).replace(/\{([a-z_]+)\}/g, (whole, name) =>
    PLACEHOLDERS.includes(name) ? values[name] : whole,
  );
}

export const DEFAULT_SUMMARY = '[{severity}] {title}';

/** The default plain-text description: the finding's facts, never its description text. */
export function defaultDescription(values) {
  const lines = [
    `Severity: ${values.severity}`,
    `Rule: ${values.rule}`,
    `Scanner: ${values.scanner}`,
  ];
  for (const [name, caption] of [
    ['cve', 'CVE'],
    ['cwe', 'CWE'],
    ['host', 'Host'],
    ['ip', 'IP'],
    ['port', 'Port'],
    ['file_path', 'File'],
    ['component', 'Component'],
    ['component_version', 'Version'],
    ['url', 'Finding'],
  ]) {
    if (values[name]) lines.push(`${caption}: ${values[name]}`);
  }
  lines.push(`Label: ${values.label}`);
  return lines.join('\n');
}

export function summaryAndDescription(settings, finding, label, prefix = '') {
  const values = valuesOf(settings, finding, label);
  const summary = render(settings[`${prefix}summary_template`] || DEFAULT_SUMMARY, values);
  const description = settings[`${prefix}description_template`]
    ? render(settings[`${prefix}description_template`], values)
    : defaultDescription(values);
  return { summary: summary.slice(0, 250), description };
}

export function groupDescription(settings, findings, label) {
  if (findings.length === 0) throw fail('rejected', 'a group task needs at least one finding');
  if (findings.length > MAX_GROUP_FINDINGS) {
    throw fail('rejected', `a group task holds at most ${MAX_GROUP_FINDINGS} findings`);
  }
  const lines = [`${findings.length} findings:`];
  for (const finding of findings) {
    const v = valuesOf(settings, finding, label);
    lines.push(`- [${v.severity}] ${v.title}${v.url ? ` — ${v.url}` : ''}`);
  }
  lines.push(`Label: ${label}`);
  return lines.join('\n');
}

export function groupLabel(settings) {
  const t = ticketOf(settings);
  if (typeof t.label !== 'string' || !t.label) {
    throw fail('misconfigured', 'a group task needs the label the service gives in _ticket');
  }
  return t.label;
}

export function query(params) {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

// ---- end of provider kit ------------------------------------------------------------------

export const ABSOLUTE_URL =
  /^https?:\/\/([^\s/?#@]+@)?([^\s/?#:[\]]+|\[[0-9a-fA-F:.]+\])(:\d{1,5})?(\/[^\s?#]*)?$/i;

/** The config_validator checks of a provider: required settings, URL forms, JSON settings. */
export function configProblems(ctx, { required, urls, json, oneOf }) {
  let settings;
  try {
    settings = JSON.parse(ctx.settingsJson);
  } catch {
    settings = undefined;
  }
  if (!settings || typeof settings !== 'object' || Array.isArray(settings)) {
    return [{ setting: '', message: 'the settings are not a JSON object' }];
  }
  const problems = [];
  const empty = (v) => v === undefined || v === null || v === '';
  for (const name of required) {
    if (empty(settings[name])) problems.push({ setting: name, message: 'is required' });
  }
  for (const name of urls) {
    const v = settings[name];
    if (!empty(v) && (typeof v !== 'string' || !ABSOLUTE_URL.test(v))) {
      problems.push({
        setting: name,
        message: 'must be an absolute http(s) URL without query, e.g. https://tracker.example.com',
      });
    }
  }
  for (const name of json) {
    const v = settings[name];
    if (typeof v === 'string' && v.trim() !== '') {
      try {
        JSON.parse(v);
      } catch {
        problems.push({ setting: name, message: 'is not valid JSON' });
      }
    }
  }
  for (const [name, allowed] of Object.entries(oneOf || {})) {
    const v = settings[name];
    if (!empty(v) && !allowed.includes(String(v))) {
      problems.push({ setting: name, message: `must be one of ${allowed.join(', ')}` });
    }
  }
  return problems;
}
