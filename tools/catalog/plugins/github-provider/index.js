// Repository issues provider for GitHub and Gitea (catalog plugin `github-provider`, provider B).
//
// `api_base_url` (default https://api.github.com; a self-hosted GitHub Enterprise
// `https://host/api/v3` or a Gitea `https://host/api/v1`) and `html_base_url` (default
// https://github.com) point at a self-hosted server. `Authorization: Bearer <token>`.
// create `POST /repos/{owner}/{repo}/issues` `{title, body, labels}` (Gitea — an API base
// ending in `/api/v1` — takes label ids: the repository's labels are listed, following `Link:
// rel="next"` pages, and missing ones created), comment `POST .../issues/{n}/comments`,
// transition `PATCH .../issues/{n}` (open → `state: open`; in-progress → open + label
// `findsvc-in-progress`; resolved → `closed` with `state_reason: completed`; closed →
// `not_planned`), status from `state`, `state_reason` and that label, search by label
// `GET .../issues?labels=<label>&state=all&per_page=1`, the one target is the configured
// repository (`GET /repos/{owner}/{repo}` proves it). Webhooks: `X-GitHub-Event` /
// `X-Gitea-Event` `issues` (`closed`, `reopened`) and `issue_comment` (`created`). Rate
// limits (429, or 403 with `X-RateLimit-Remaining: 0`) answer `unreachable("retry-after:<s>")`
// from `Retry-After` or `X-RateLimit-Reset` (measured by the answer's `Date`).
import { getProjectSecret, getSecret, httpRequest } from 'findsvc:plugin/host@0.1.0';

// ---- provider kit (the same in the three catalog providers; a plugin is one file) ----------

const MAX_PAGES = 100;
const MAX_GROUP_FINDINGS = 500;
const DEFAULT_RETRY_AFTER_SECONDS = 60;
const PLACEHOLDERS = [
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

function fail(tag, text) {
  return { tag, val: String(text).slice(0, 500) };
}

function describeError(error) {
  const payload = error && error.payload !== undefined ? error.payload : error;
  if (payload && typeof payload === 'object' && 'tag' in payload) {
    return `${payload.tag}: ${payload.val}`;
  }
  return String(payload);
}

function settingsOf(ctx) {
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

function requiredSetting(settings, name) {
  const value = settings[name];
  if (value === undefined || value === null || value === '') {
    throw fail('misconfigured', `setting ${name} is required`);
  }
  return String(value);
}

/** The project's secret first (a per-project override), else the installation's. */
function secretOf(name) {
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
function jsonSetting(settings, name, fallback) {
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
function labelList(settings) {
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

function trimSlash(url) {
  return String(url).replace(/\/+$/, '');
}

function header(response, name) {
  const found = response.headers.find((h) => h.name.toLowerCase() === name);
  return found ? found.value : undefined;
}

/** Seconds to wait from `Retry-After` (seconds, or an HTTP date measured by the answer's own `Date`). */
function retryAfterSeconds(response) {
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

function isRateLimited(response) {
  if (response.status === 429) return true;
  return response.status === 403 && header(response, 'x-ratelimit-remaining') === '0';
}

/**
 * One call to the tracker. `what` names it in errors (never the URL: a query may hold a key).
 * Answers the parsed JSON (undefined for an empty body); every failure is a provider-error.
 */
function call(what, request) {
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
    // The sandbox has no clock to wait with: the service waits (backfill and sync jobs).
    throw fail('unreachable', `retry-after:${retryAfterSeconds(response)}`);
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
function apiMessage(body) {
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
function ticketOf(settings) {
  const t = settings._ticket;
  return t && typeof t === 'object' && !Array.isArray(t) ? t : {};
}

function findingLabel(settings, finding) {
  const t = ticketOf(settings);
  return typeof t.label === 'string' && t.label ? t.label : `findsvc-${finding.id}`;
}

function valuesOf(settings, finding, label) {
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
function render(template, values) {
  return String(template).replace(/\{([a-z_]+)\}/g, (whole, name) =>
    PLACEHOLDERS.includes(name) ? values[name] : whole,
  );
}

const DEFAULT_SUMMARY = '[{severity}] {title}';

/** The default plain-text description: the finding's facts, never its description text. */
function defaultDescription(values) {
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

function summaryAndDescription(settings, finding, label, prefix = '') {
  const values = valuesOf(settings, finding, label);
  const summary = render(settings[`${prefix}summary_template`] || DEFAULT_SUMMARY, values);
  const description = settings[`${prefix}description_template`]
    ? render(settings[`${prefix}description_template`], values)
    : defaultDescription(values);
  return { summary: summary.slice(0, 250), description };
}

function groupDescription(settings, findings, label) {
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

function groupLabel(settings) {
  const t = ticketOf(settings);
  if (typeof t.label !== 'string' || !t.label) {
    throw fail('misconfigured', 'a group task needs the label the service gives in _ticket');
  }
  return t.label;
}

function query(params) {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

// ---- end of provider kit ------------------------------------------------------------------

const ABSOLUTE_URL =
  /^https?:\/\/([^\s/?#@]+@)?([^\s/?#:[\]]+|\[[0-9a-fA-F:.]+\])(:\d{1,5})?(\/[^\s?#]*)?$/i;

/** The config_validator checks of a provider: required settings, URL forms, JSON settings. */
function configProblems(ctx, { required, urls, json, oneOf }) {
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

const IN_PROGRESS_LABEL = 'findsvc-in-progress';
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

function repoOf(ctx) {
  const settings = settingsOf(ctx);
  const owner = requiredSetting(settings, 'owner');
  const repo = requiredSetting(settings, 'repo');
  if (!NAME.test(owner) || !NAME.test(repo))
    throw fail('misconfigured', 'owner and repo must be plain names');
  const api = trimSlash(settings.api_base_url || 'https://api.github.com');
  const html = trimSlash(settings.html_base_url || 'https://github.com');
  const token = secretOf('token');
  if (!token) throw fail('misconfigured', 'secret token is required');
  return {
    settings,
    owner,
    repo,
    api,
    html,
    token,
    gitea: /\/api\/v1$/.test(api),
    path: `${api}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`,
  };
}

function gh(r, what, method, url, body) {
  return call(what, {
    method,
    url,
    headers: [
      { name: 'accept', value: 'application/vnd.github+json' },
      { name: 'content-type', value: 'application/json' },
      { name: 'authorization', value: `Bearer ${r.token}` },
      { name: 'x-github-api-version', value: '2022-11-28' },
    ],
    body,
  });
}

function issueNumber(taskId) {
  if (!/^\d{1,12}$/.test(taskId)) throw fail('rejected', 'not an issue number');
  return taskId;
}

function nextLink(response) {
  const link = header(response, 'link');
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (m) return m[1];
  }
  return undefined;
}

/** Gitea takes label ids: the repository's labels by name (every page), missing ones created. */
function giteaLabelIds(r, names) {
  const known = new Map();
  let url = `${r.path}/labels?limit=50`;
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const { response, json } = gh(r, 'labels', 'GET', url);
    for (const label of Array.isArray(json) ? json : []) {
      if (label && typeof label.name === 'string') known.set(label.name, label.id);
    }
    url = nextLink(response);
  }
  const ids = [];
  for (const name of names) {
    if (!known.has(name)) {
      const { json } = gh(r, 'create label', 'POST', `${r.path}/labels`, {
        name,
        color: '#e11d48',
      });
      if (!json || json.id === undefined)
        throw fail('unreachable', 'create label: no id in the answer');
      known.set(name, json.id);
    }
    ids.push(known.get(name));
  }
  return ids;
}

function taskRef(r, issue) {
  if (!issue || typeof issue.number !== 'number')
    throw fail('unreachable', 'the answer has no issue number');
  const n = String(issue.number);
  return {
    id: n,
    key: `${r.repo}#${n}`,
    url:
      typeof issue.html_url === 'string'
        ? issue.html_url
        : `${r.html}/${r.owner}/${r.repo}/issues/${n}`,
  };
}

function createIssue(r, title, body, labels) {
  const names = [...new Set(labels)];
  const { json } = gh(r, 'create issue', 'POST', `${r.path}/issues`, {
    title,
    body,
    labels: r.gitea ? giteaLabelIds(r, names) : names,
  });
  return taskRef(r, json);
}

function stateOf(issue) {
  const state = String(issue.state || '');
  const reason = issue.state_reason ? String(issue.state_reason) : '';
  const raw = reason ? `${state}/${reason}` : state;
  if (state === 'closed') return { status: reason === 'not_planned' ? 'closed' : 'resolved', raw };
  const labels = Array.isArray(issue.labels) ? issue.labels : [];
  const busy = labels.some((l) => (typeof l === 'string' ? l : l && l.name) === IN_PROGRESS_LABEL);
  return busy
    ? { status: 'in-progress', raw: `${raw}/${IN_PROGRESS_LABEL}` }
    : { status: 'open', raw };
}

function removeInProgress(r, n) {
  let target = IN_PROGRESS_LABEL;
  if (r.gitea) {
    // Gitea removes a label of an issue by its id: read it from the issue.
    const { json } = gh(r, 'read issue', 'GET', `${r.path}/issues/${n}`);
    const labels = json && Array.isArray(json.labels) ? json.labels : [];
    const found = labels.find((l) => l && l.name === IN_PROGRESS_LABEL);
    if (!found) return;
    target = String(found.id);
  }
  try {
    gh(r, 'remove label', 'DELETE', `${r.path}/issues/${n}/labels/${encodeURIComponent(target)}`);
  } catch (error) {
    if (!error || error.tag !== 'not-found') throw error; // the label was not on the issue
  }
}

export const ticketingProvider = {
  createTask(ctx, target, finding) {
    const r = repoOf(ctx);
    const label = findingLabel(r.settings, finding);
    const { summary, description } = summaryAndDescription(r.settings, finding, label);
    return createIssue(r, summary, description, [label, ...labelList(r.settings)]);
  },

  createGroupTask(ctx, target, title, findings) {
    const r = repoOf(ctx);
    const label = groupLabel(r.settings);
    const body = groupDescription(r.settings, findings, label);
    return createIssue(r, String(title).slice(0, 250), body, [label, ...labelList(r.settings)]);
  },

  addComment(ctx, taskId, body) {
    const r = repoOf(ctx);
    gh(r, 'add comment', 'POST', `${r.path}/issues/${issueNumber(taskId)}/comments`, { body });
  },

  transition(ctx, taskId, status) {
    const r = repoOf(ctx);
    const n = issueNumber(taskId);
    const url = `${r.path}/issues/${n}`;
    if (status === 'open') {
      gh(
        r,
        'reopen',
        'PATCH',
        url,
        r.gitea ? { state: 'open' } : { state: 'open', state_reason: 'reopened' },
      );
      removeInProgress(r, n);
    } else if (status === 'in-progress') {
      gh(r, 'reopen', 'PATCH', url, { state: 'open' });
      const labels = r.gitea ? giteaLabelIds(r, [IN_PROGRESS_LABEL]) : [IN_PROGRESS_LABEL];
      gh(r, 'add label', 'POST', `${url}/labels`, { labels });
    } else {
      const reason = status === 'resolved' ? 'completed' : 'not_planned';
      gh(
        r,
        'close',
        'PATCH',
        url,
        r.gitea ? { state: 'closed' } : { state: 'closed', state_reason: reason },
      );
      removeInProgress(r, n);
    }
  },

  readStatus(ctx, taskId) {
    const r = repoOf(ctx);
    const { json } = gh(r, 'read issue', 'GET', `${r.path}/issues/${issueNumber(taskId)}`);
    if (!json || typeof json.state !== 'string')
      throw fail('unreachable', 'read issue: no state in the answer');
    return stateOf(json);
  },

  buildLink(ctx, taskId) {
    const settings = settingsOf(ctx);
    const owner = requiredSetting(settings, 'owner');
    const repo = requiredSetting(settings, 'repo');
    const html = trimSlash(settings.html_base_url || 'https://github.com');
    const base = `${html}/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues`;
    if (taskId !== '') return `${base}/${issueNumber(taskId)}`;
    const t = ticketOf(settings);
    const findings = Array.isArray(t.findings) ? t.findings : [];
    const label = typeof t.label === 'string' ? t.label : '';
    const title =
      findings.length === 1
        ? `${findings[0].title || findings[0].id}`
        : String(t.title || `${findings.length} findings`);
    const body = [
      ...findings.map((f) => `- ${f.title || f.id}${f.url ? ` — ${f.url}` : ''}`),
      `Label: ${label}`,
    ].join('\n');
    return `${base}/new?${query({ title, body, labels: [label, ...labelList(settings)].filter(Boolean).join(',') })}`;
  },

  parseWebhook(ctx, headers, body) {
    const named = (name) => {
      const h = headers.find((x) => x.name.toLowerCase() === name);
      return h ? h.value : undefined;
    };
    const kind = named('x-github-event') || named('x-gitea-event');
    if (!kind) return undefined;
    let event;
    try {
      event = JSON.parse(body);
    } catch {
      throw fail('rejected', 'the webhook body is not JSON');
    }
    const issue = event && event.issue;
    if (!issue || typeof issue.number !== 'number') return undefined;
    const taskId = String(issue.number);
    if (kind === 'issues' && (event.action === 'closed' || event.action === 'reopened')) {
      return { taskId, state: stateOf(issue), comment: undefined };
    }
    if (kind === 'issue_comment' && event.action === 'created' && event.comment) {
      return {
        taskId,
        state: undefined,
        comment: String(event.comment.body || '').slice(0, 10000),
      };
    }
    return undefined;
  },

  findTaskByLabel(ctx, label) {
    const r = repoOf(ctx);
    const params = { labels: label, state: 'all', per_page: 1 };
    if (r.gitea) Object.assign(params, { type: 'issues', limit: 1 });
    const { json } = gh(r, 'search', 'GET', `${r.path}/issues?${query(params)}`);
    const issue = Array.isArray(json) ? json[0] : undefined;
    return issue ? taskRef(r, issue) : undefined;
  },

  listTargets(ctx) {
    const r = repoOf(ctx);
    const { json } = gh(r, 'repository', 'GET', r.path);
    if (!json || typeof json !== 'object')
      throw fail('unreachable', 'repository: unexpected answer');
    const full = typeof json.full_name === 'string' ? json.full_name : `${r.owner}/${r.repo}`;
    return [{ id: full, name: full }];
  },
};

export const configValidator = {
  validate(ctx) {
    const problems = configProblems(ctx, {
      required: ['owner', 'repo'],
      urls: ['api_base_url', 'html_base_url'],
      json: [],
    });
    let token;
    try {
      token = getSecret('token');
    } catch {
      token = undefined;
    }
    if (!token) problems.push({ setting: 'token', message: 'is required' });
    if (problems.length > 0) throw problems;
  },
};
