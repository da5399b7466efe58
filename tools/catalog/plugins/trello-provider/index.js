// Board provider (catalog plugin `trello-provider`, provider C of the spec, Trello-style API).
//
// Every call carries `key=<api_key>&token=<api_token>` in its query (both secrets; errors never
// name a URL). The targets are the board's lists (`GET /1/boards/{board_id}/lists`); a card is
// created in the target list or the list named `list_name` (`POST /1/cards?idList&name&desc
// &idLabels`, labels by name, created on the board when missing), comments are `POST
// /1/cards/{id}/actions/comments?text=`. A transition is a move between lists: open →
// `list_name`; in-progress → a list named "In Progress" or "Doing"; resolved → "Done" or
// "Resolved"; closed → the card is archived (`closed=true`). The status is read back the same
// way from the card's list and `closed`. Search by label walks `GET /1/boards/{id}/cards/all`
// in pages of 1 000 by `before` (at most 100 pages). Webhooks: `action.type` `updateCard` with
// `listAfter` or `card.closed`, and `commentCard`. Rate limits (429) answer
// `unreachable("retry-after:<seconds>")`.
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

const CARDS_PAGE = 1000;
const ID = /^[0-9a-fA-F]{24}$|^[A-Za-z0-9]{8}$/;
const STATUS_LISTS = {
  'in-progress': ['in progress', 'doing'],
  resolved: ['done', 'resolved'],
};

function boardOf(ctx) {
  const settings = settingsOf(ctx);
  const board = requiredSetting(settings, 'board_id');
  if (!ID.test(board)) throw fail('misconfigured', 'board_id is not a board id');
  const key = secretOf('api_key');
  const token = secretOf('api_token');
  if (!key || !token) throw fail('misconfigured', 'secrets api_key and api_token are required');
  return {
    settings,
    board,
    key,
    token,
    api: `${trimSlash(settings.api_base_url || 'https://api.trello.com')}/1`,
  };
}

function trello(b, what, method, path, params = {}) {
  const q = query({ ...params, key: b.key, token: b.token });
  return call(what, {
    method,
    url: `${b.api}${path}?${q}`,
    headers: [{ name: 'accept', value: 'application/json' }],
    body: undefined,
  }).json;
}

function cardId(taskId) {
  if (!ID.test(taskId)) throw fail('rejected', 'not a card id');
  return taskId;
}

function listsOf(b) {
  const lists = trello(b, 'board lists', 'GET', `/boards/${b.board}/lists`, { fields: 'id,name' });
  if (!Array.isArray(lists)) throw fail('unreachable', 'board lists: unexpected answer');
  return lists.filter((l) => l && typeof l.id === 'string');
}

function listFor(b, lists, status) {
  const name = (l) =>
    String(l.name || '')
      .trim()
      .toLowerCase();
  if (status === 'open') {
    const wanted = requiredSetting(b.settings, 'list_name').trim().toLowerCase();
    return lists.find((l) => name(l) === wanted);
  }
  return lists.find((l) => STATUS_LISTS[status].includes(name(l)));
}

function statusOfList(b, listName) {
  const n = String(listName || '')
    .trim()
    .toLowerCase();
  if (STATUS_LISTS['in-progress'].includes(n)) return 'in-progress';
  if (STATUS_LISTS.resolved.includes(n)) return 'resolved';
  return 'open';
}

function labelIds(b, names) {
  if (names.length === 0) return [];
  const labels = trello(b, 'board labels', 'GET', `/boards/${b.board}/labels`, {
    fields: 'id,name',
    limit: 1000,
  });
  const known = new Map((Array.isArray(labels) ? labels : []).map((l) => [l && l.name, l && l.id]));
  return names.map((name) => {
    if (known.get(name)) return known.get(name);
    const made = trello(b, 'create label', 'POST', '/labels', {
      idBoard: b.board,
      name,
      color: 'red',
    });
    if (!made || typeof made.id !== 'string')
      throw fail('unreachable', 'create label: no id in the answer');
    known.set(name, made.id);
    return made.id;
  });
}

function ref(card) {
  if (!card || typeof card.id !== 'string') throw fail('unreachable', 'the answer has no card id');
  return {
    id: card.id,
    key: typeof card.shortLink === 'string' ? card.shortLink : card.id,
    url:
      typeof card.url === 'string' ? card.url : `https://trello.com/c/${card.shortLink || card.id}`,
  };
}

function createCard(b, target, name, desc, labels) {
  let idList = target;
  if (!idList) {
    const list = listFor(b, listsOf(b), 'open');
    if (!list) throw fail('misconfigured', `the board has no list named ${b.settings.list_name}`);
    idList = list.id;
  }
  const card = trello(b, 'create card', 'POST', '/cards', {
    idList,
    name,
    desc,
    idLabels: labelIds(b, [...new Set(labels)]).join(','),
    pos: 'top',
  });
  return ref(card);
}

export const ticketingProvider = {
  createTask(ctx, target, finding) {
    const b = boardOf(ctx);
    const label = findingLabel(b.settings, finding);
    const { summary, description } = summaryAndDescription(b.settings, finding, label);
    return createCard(b, target, summary, description, [label, ...labelList(b.settings)]);
  },

  createGroupTask(ctx, target, title, findings) {
    const b = boardOf(ctx);
    const label = groupLabel(b.settings);
    const desc = groupDescription(b.settings, findings, label);
    return createCard(b, target, String(title).slice(0, 250), desc, [
      label,
      ...labelList(b.settings),
    ]);
  },

  addComment(ctx, taskId, body) {
    const b = boardOf(ctx);
    trello(b, 'add comment', 'POST', `/cards/${cardId(taskId)}/actions/comments`, { text: body });
  },

  transition(ctx, taskId, status) {
    const b = boardOf(ctx);
    const id = cardId(taskId);
    if (status === 'closed') {
      trello(b, 'archive card', 'PUT', `/cards/${id}`, { closed: 'true' });
      return;
    }
    const list = listFor(b, listsOf(b), status);
    if (!list) throw fail('rejected', `the board has no list for ${status}`);
    trello(b, 'move card', 'PUT', `/cards/${id}`, { idList: list.id, closed: 'false' });
  },

  readStatus(ctx, taskId) {
    const b = boardOf(ctx);
    const card = trello(b, 'read card', 'GET', `/cards/${cardId(taskId)}`, {
      fields: 'idList,closed',
      list: 'true',
    });
    if (!card || typeof card !== 'object')
      throw fail('unreachable', 'read card: unexpected answer');
    if (card.closed === true) return { status: 'closed', raw: 'archived' };
    const listName = card.list && typeof card.list.name === 'string' ? card.list.name : '';
    return { status: statusOfList(b, listName), raw: listName };
  },

  buildLink(ctx, taskId) {
    if (taskId !== '') return `https://trello.com/c/${cardId(taskId)}`;
    const b = boardOf(ctx);
    const t = ticketOf(b.settings);
    const findings = Array.isArray(t.findings) ? t.findings : [];
    let idList = t.target;
    if (!idList) {
      const list = listFor(b, listsOf(b), 'open');
      if (!list) throw fail('misconfigured', `the board has no list named ${b.settings.list_name}`);
      idList = list.id;
    }
    const name =
      findings.length === 1
        ? `${findings[0].title || findings[0].id}`
        : String(t.title || `${findings.length} findings`);
    const desc = [
      ...findings.map((f) => `- ${f.title || f.id}${f.url ? ` — ${f.url}` : ''}`),
      `Label: ${t.label || ''}`,
    ].join('\n');
    return `https://trello.com/add-card?${query({ idList, name, desc })}`;
  },

  parseWebhook(ctx, headers, body) {
    let event;
    try {
      event = JSON.parse(body);
    } catch {
      throw fail('rejected', 'the webhook body is not JSON');
    }
    const action = event && event.action;
    const data = action && action.data;
    const card = data && data.card;
    if (!card || typeof card.id !== 'string') return undefined;
    if (action.type === 'updateCard') {
      if (card.closed === true && data.old && data.old.closed === false) {
        return {
          taskId: card.id,
          state: { status: 'closed', raw: 'archived' },
          comment: undefined,
        };
      }
      if (data.listAfter && typeof data.listAfter.name === 'string') {
        const settings = settingsOf(ctx);
        return {
          taskId: card.id,
          state: {
            status: statusOfList({ settings }, data.listAfter.name),
            raw: data.listAfter.name,
          },
          comment: undefined,
        };
      }
      if (card.closed === false && data.old && data.old.closed === true) {
        return {
          taskId: card.id,
          state: { status: 'open', raw: 'unarchived' },
          comment: undefined,
        };
      }
      return undefined;
    }
    if (action.type === 'commentCard' && typeof data.text === 'string') {
      return { taskId: card.id, state: undefined, comment: data.text.slice(0, 10000) };
    }
    return undefined;
  },

  findTaskByLabel(ctx, label) {
    const b = boardOf(ctx);
    let before;
    for (let page = 0; page < MAX_PAGES; page++) {
      const cards = trello(b, 'board cards', 'GET', `/boards/${b.board}/cards/all`, {
        fields: 'id,shortLink,url,labels',
        limit: CARDS_PAGE,
        before,
      });
      if (!Array.isArray(cards)) throw fail('unreachable', 'board cards: unexpected answer');
      const found = cards.find(
        (c) => c && Array.isArray(c.labels) && c.labels.some((l) => l && l.name === label),
      );
      if (found) return ref(found);
      if (cards.length < CARDS_PAGE) return undefined;
      const ids = cards
        .map((c) => c && c.id)
        .filter((id) => typeof id === 'string')
        .sort();
      before = ids[0];
      if (!before) return undefined;
    }
    return undefined;
  },

  listTargets(ctx) {
    const b = boardOf(ctx);
    return listsOf(b).map((l) => ({ id: l.id, name: String(l.name || l.id) }));
  },
};

export const configValidator = {
  validate(ctx) {
    const problems = configProblems(ctx, {
      required: ['board_id', 'list_name'],
      urls: ['api_base_url'],
      json: [],
    });
    for (const name of ['api_key', 'api_token']) {
      let value;
      try {
        value = getSecret(name);
      } catch {
        value = undefined;
      }
      if (!value) problems.push({ setting: name, message: 'is required' });
    }
    if (problems.length > 0) throw problems;
  },
};
