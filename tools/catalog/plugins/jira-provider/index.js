// Jira-style issue tracker provider (catalog plugin `jira-provider`, provider A of the spec).
//
// REST v3 on Atlassian Cloud (`*.atlassian.net`), else v2 (`api_version` overrides):
// create `POST /rest/api/{v}/issue` (v3 descriptions in Atlassian Document Format, v2 text),
// comment `POST /rest/api/{v}/issue/{key}/comment`, transitions `GET|POST .../transitions`
// (chosen by the target status category `new` / `indeterminate` / `done`, resolved ~ "Resolve",
// closed ~ "Close|Done"), status `GET /rest/api/{v}/issue/{key}?fields=status`, search by
// label `GET /rest/api/2/search` or `/rest/api/3/search/jql` with `jql=labels="<label>"`,
// targets `GET /rest/api/{v}/project/search` paged until `isLast` (at most 100 pages),
// filtered by `projects`. Authentication: `auth_method` `basic` (default) sends
// `Basic base64(email:api_token)`; `oauth` obtains a client-credentials token (`client_id`,
// `client_secret`) from `https://auth.atlassian.com/oauth/token` for Cloud, else from
// `{base_url}/rest/oauth2/latest/token`, kept for the instance (one event) and fetched again
// once on a 401. A task's id and key are the issue key. Rate limits (429) answer
// `unreachable("retry-after:<seconds>")`: the sandbox has no clock, the service waits.
import { getSecret } from 'findsvc:plugin/host@0.1.0';

import {
  call,
  configProblems,
  fail,
  findingLabel,
  groupDescription,
  groupLabel,
  jsonSetting,
  labelList,
  MAX_PAGES,
  query,
  requiredSetting,
  secretOf,
  settingsOf,
  summaryAndDescription,
  ticketOf,
  trimSlash,
} from './provider-kit.js';

const CLOUD_TOKEN_URL = 'https://auth.atlassian.com/oauth/token';
let oauth; // { key, token }

function jiraOf(ctx) {
  const settings = settingsOf(ctx);
  const base = trimSlash(requiredSetting(settings, 'base_url'));
  let host;
  const m = /^https?:\/\/([^/:?#]+)/i.exec(base);
  if (!m) throw fail('misconfigured', 'setting base_url is not an http(s) URL');
  host = m[1].toLowerCase();
  const cloud = host.endsWith('.atlassian.net');
  const version = settings.api_version ? String(settings.api_version) : cloud ? '3' : '2';
  if (version !== '2' && version !== '3') throw fail('misconfigured', 'api_version must be 2 or 3');
  return { settings, base, cloud, version, api: `${base}/rest/api/${version}` };
}

function bytesToBase64(text) {
  const bytes = [];
  for (const ch of unescape(encodeURIComponent(text))) bytes.push(ch.charCodeAt(0));
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += alphabet[(n >> 18) & 63] + alphabet[(n >> 12) & 63];
    out += b === undefined ? '=' : alphabet[(n >> 6) & 63];
    out += c === undefined ? '=' : alphabet[n & 63];
  }
  return out;
}

function oauthToken(jira, fresh) {
  const clientId = requiredSetting(jira.settings, 'client_id');
  const clientSecret = secretOf('client_secret');
  if (!clientSecret) throw fail('misconfigured', 'secret client_secret is required for oauth');
  const url = jira.cloud ? CLOUD_TOKEN_URL : `${jira.base}/rest/oauth2/latest/token`;
  const key = `${url}\n${clientId}`;
  if (!fresh && oauth && oauth.key === key) return oauth.token;
  const { json } = call('token endpoint', {
    method: 'POST',
    url,
    headers: [
      { name: 'content-type', value: 'application/json' },
      { name: 'accept', value: 'application/json' },
    ],
    body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
  });
  if (!json || typeof json.access_token !== 'string' || json.access_token === '') {
    throw fail('unauthorized', 'token endpoint: no access_token in the answer');
  }
  oauth = { key, token: json.access_token };
  return oauth.token;
}

function authHeader(jira, fresh) {
  const method = jira.settings.auth_method || 'basic';
  if (method === 'oauth') return `Bearer ${oauthToken(jira, fresh)}`;
  if (method !== 'basic') throw fail('misconfigured', 'auth_method must be basic or oauth');
  const email = requiredSetting(jira.settings, 'email');
  const token = secretOf('api_token');
  if (!token) throw fail('misconfigured', 'secret api_token is required for basic authentication');
  return `Basic ${bytesToBase64(`${email}:${token}`)}`;
}

function jiraCall(jira, what, method, path, body) {
  const request = (fresh) => ({
    method,
    url: path.startsWith('http') ? path : `${jira.api}${path}`,
    headers: [
      { name: 'accept', value: 'application/json' },
      { name: 'content-type', value: 'application/json' },
      { name: 'authorization', value: authHeader(jira, fresh) },
    ],
    body,
  });
  try {
    return call(what, request(false)).json;
  } catch (error) {
    if (
      (jira.settings.auth_method || 'basic') === 'oauth' &&
      error &&
      error.tag === 'unauthorized'
    ) {
      return call(what, request(true)).json; // the kept token may have expired
    }
    throw error;
  }
}

function textDocument(jira, text) {
  if (jira.version === '2') return text;
  return {
    type: 'doc',
    version: 1,
    content: String(text)
      .split('\n')
      .map((line) => ({
        type: 'paragraph',
        content: line === '' ? [] : [{ type: 'text', text: line }],
      })),
  };
}

function issueType(settings, scanner) {
  const byEngine = jsonSetting(settings, 'issuetype_by_engine', {});
  const mapped = byEngine && typeof byEngine === 'object' ? byEngine[scanner] : undefined;
  if (mapped !== undefined && mapped !== null && mapped !== '') {
    return /^\d+$/.test(String(mapped)) ? { id: String(mapped) } : { name: String(mapped) };
  }
  if (settings.issuetype_id) return { id: String(settings.issuetype_id) };
  return { name: settings.issue_type ? String(settings.issue_type) : 'Task' };
}

function priorityOf(settings, severity) {
  if (settings.priority_id) return { id: String(settings.priority_id) };
  const maps = jsonSetting(settings, 'value_maps', {});
  const bySeverity = maps && typeof maps === 'object' ? maps.severity : undefined;
  const value = bySeverity && typeof bySeverity === 'object' ? bySeverity[severity] : undefined;
  return value === undefined || value === null ? undefined : { id: String(value) };
}

function createIssue(jira, target, { summary, description, labels, scanner, severity }) {
  const settings = jira.settings;
  const projectKey = target || requiredSetting(settings, 'project_key');
  const fields = {
    project: { key: projectKey },
    issuetype: issueType(settings, scanner),
    summary,
    description: textDocument(jira, description),
    labels: [...new Set(labels)],
  };
  const priority = severity ? priorityOf(settings, severity) : undefined;
  if (priority) fields.priority = priority;
  const extra = jsonSetting(settings, 'extra_fields', {});
  if (extra && typeof extra === 'object' && !Array.isArray(extra)) Object.assign(fields, extra);
  const params = jsonSetting(settings, 'extra_params', {});
  const suffix =
    params && typeof params === 'object' && !Array.isArray(params) ? query(params) : '';
  const created = jiraCall(jira, 'create issue', 'POST', `/issue${suffix ? `?${suffix}` : ''}`, {
    fields,
  });
  if (!created || typeof created.key !== 'string') {
    throw fail('unreachable', 'create issue: the answer has no issue key');
  }
  return { id: created.key, key: created.key, url: `${jira.base}/browse/${created.key}` };
}

function issuePath(taskId) {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(taskId)) throw fail('rejected', 'not an issue key');
  return `/issue/${encodeURIComponent(taskId)}`;
}

function stateOfStatus(status) {
  const name = String((status && status.name) || '');
  const category = String((status && status.statusCategory && status.statusCategory.key) || '');
  if (category === 'indeterminate') return { status: 'in-progress', raw: name };
  if (category === 'done')
    return { status: /resolv/i.test(name) ? 'resolved' : 'closed', raw: name };
  return { status: 'open', raw: name };
}

function chooseTransition(transitions, status) {
  const category = (t) => String((t.to && t.to.statusCategory && t.to.statusCategory.key) || '');
  const named = (t) => `${t.name || ''} ${(t.to && t.to.name) || ''}`;
  if (status === 'open') return transitions.find((t) => category(t) === 'new');
  if (status === 'in-progress') return transitions.find((t) => category(t) === 'indeterminate');
  const done = transitions.filter((t) => category(t) === 'done');
  if (status === 'resolved') return done.find((t) => /resolv/i.test(named(t))) || done[0];
  return done.find((t) => /close|done/i.test(named(t))) || done[0];
}

function jqlLabel(label) {
  return `labels = "${String(label).replace(/["\\]/g, '\\$&')}"`;
}

export const ticketingProvider = {
  createTask(ctx, target, finding) {
    const jira = jiraOf(ctx);
    const label = findingLabel(jira.settings, finding);
    const { summary, description } = summaryAndDescription(jira.settings, finding, label);
    return createIssue(jira, target, {
      summary,
      description,
      labels: [label, ...labelList(jira.settings)],
      scanner: finding.scanner,
      severity: finding.severity,
    });
  },

  createGroupTask(ctx, target, title, findings) {
    const jira = jiraOf(ctx);
    const label = groupLabel(jira.settings);
    const order = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];
    const worst = findings
      .map((f) => f.severity)
      .sort((a, b) => order.indexOf(a) - order.indexOf(b))[0];
    return createIssue(jira, target, {
      summary: String(title).slice(0, 250),
      description: groupDescription(jira.settings, findings, label),
      labels: [label, ...labelList(jira.settings)],
      scanner: findings[0] && findings[0].scanner,
      severity: worst,
    });
  },

  addComment(ctx, taskId, body) {
    const jira = jiraOf(ctx);
    jiraCall(jira, 'add comment', 'POST', `${issuePath(taskId)}/comment`, {
      body: textDocument(jira, body),
    });
  },

  transition(ctx, taskId, status) {
    const jira = jiraOf(ctx);
    const answer = jiraCall(jira, 'transitions', 'GET', `${issuePath(taskId)}/transitions`);
    const transitions = answer && Array.isArray(answer.transitions) ? answer.transitions : [];
    const chosen = chooseTransition(transitions, status);
    if (!chosen) throw fail('rejected', `no transition of ${taskId} leads to ${status}`);
    const body = { transition: { id: String(chosen.id) } };
    const fields = jsonSetting(jira.settings, 'transition_fields', undefined);
    const forStatus = fields && typeof fields === 'object' ? fields[status] : undefined;
    if (forStatus && typeof forStatus === 'object') body.fields = forStatus;
    jiraCall(jira, 'transition', 'POST', `${issuePath(taskId)}/transitions`, body);
  },

  readStatus(ctx, taskId) {
    const jira = jiraOf(ctx);
    const issue = jiraCall(jira, 'read issue', 'GET', `${issuePath(taskId)}?fields=status`);
    if (!issue || !issue.fields || !issue.fields.status) {
      throw fail('unreachable', 'read issue: the answer has no status');
    }
    return stateOfStatus(issue.fields.status);
  },

  buildLink(ctx, taskId) {
    const jira = jiraOf(ctx);
    if (taskId !== '') {
      issuePath(taskId);
      return `${jira.base}/browse/${encodeURIComponent(taskId)}`;
    }
    const settings = jira.settings;
    const t = ticketOf(settings);
    const findings = Array.isArray(t.findings) ? t.findings : [];
    const label = typeof t.label === 'string' && t.label ? t.label : '';
    let summary;
    let description;
    if (findings.length === 1) {
      const f = { id: findings[0].id, severity: '', rule: '', scanner: '', status: '' };
      ({ summary, description } = summaryAndDescription(settings, f, label, 'partial_'));
    } else {
      summary = String(t.title || `${findings.length} findings`);
      description = findings
        .map((f) => `- ${f.title || f.id}${f.url ? ` — ${f.url}` : ''}`)
        .join('\n');
    }
    const projectKey = t.target || requiredSetting(settings, 'project_key');
    const project = jiraCall(
      jira,
      'read project',
      'GET',
      `/project/${encodeURIComponent(projectKey)}`,
    );
    const type = issueType(settings, '');
    return `${jira.base}/secure/CreateIssueDetails!init.jspa?${query({
      pid: project && project.id,
      issuetype: type.id || '',
      summary,
      description,
      labels: label,
    })}`;
  },

  parseWebhook(ctx, headers, body) {
    let event;
    try {
      event = JSON.parse(body);
    } catch {
      throw fail('rejected', 'the webhook body is not JSON');
    }
    if (!event || typeof event !== 'object') return undefined;
    const issue = event.issue;
    const taskId = issue && typeof issue.key === 'string' ? issue.key : undefined;
    if (!taskId) return undefined;
    if (event.webhookEvent === 'jira:issue_updated') {
      const items = (event.changelog && event.changelog.items) || [];
      const change = items.find((i) => i && i.field === 'status');
      if (!change) return undefined;
      const status = issue.fields && issue.fields.status;
      const state = status
        ? stateOfStatus(status)
        : { status: 'open', raw: String(change.toString || '') };
      return { taskId, state, comment: undefined };
    }
    if (event.webhookEvent === 'comment_created' && event.comment) {
      const text =
        typeof event.comment.body === 'string'
          ? event.comment.body
          : JSON.stringify(event.comment.body);
      return { taskId, state: undefined, comment: text.slice(0, 10000) };
    }
    return undefined;
  },

  findTaskByLabel(ctx, label) {
    const jira = jiraOf(ctx);
    const path = jira.version === '3' ? '/search/jql' : '/search';
    const answer = jiraCall(
      jira,
      'search',
      'GET',
      `${path}?${query({ jql: jqlLabel(label), maxResults: 1, fields: 'key' })}`,
    );
    const issue = answer && Array.isArray(answer.issues) ? answer.issues[0] : undefined;
    if (!issue || typeof issue.key !== 'string') return undefined;
    return { id: issue.key, key: issue.key, url: `${jira.base}/browse/${issue.key}` };
  },

  listTargets(ctx) {
    const jira = jiraOf(ctx);
    const projects = jira.settings.projects;
    let wanted;
    if (Array.isArray(projects)) wanted = projects.map(String);
    else if (typeof projects === 'string' && projects.trim().startsWith('[')) {
      wanted = jsonSetting(jira.settings, 'projects', []).map(String);
    } else if (typeof projects === 'string' && projects.trim() !== '') {
      wanted = projects
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    }
    const targets = [];
    let startAt = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = jiraCall(
        jira,
        'project search',
        'GET',
        `/project/search?startAt=${startAt}&maxResults=50`,
      );
      const values = answer && Array.isArray(answer.values) ? answer.values : [];
      for (const p of values) {
        if (p && typeof p.key === 'string' && (!wanted || wanted.includes(p.key))) {
          targets.push({ id: p.key, name: String(p.name || p.key) });
        }
      }
      if (!answer || answer.isLast !== false || values.length === 0) break;
      startAt += values.length;
    }
    return targets;
  },
};

export const configValidator = {
  validate(ctx) {
    const problems = configProblems(ctx, {
      required: ['base_url', 'project_key'],
      urls: ['base_url'],
      json: [
        'issuetype_by_engine',
        'extra_fields',
        'extra_params',
        'value_maps',
        'transition_fields',
        'projects',
      ],
      oneOf: { auth_method: ['basic', 'oauth'], api_version: ['2', '3'] },
    });
    let settings = {};
    try {
      settings = JSON.parse(ctx.settingsJson) || {};
    } catch {
      settings = {};
    }
    if ((settings.auth_method || 'basic') === 'basic') {
      if (!settings.email)
        problems.push({ setting: 'email', message: 'is required for basic authentication' });
      let token;
      try {
        token = getSecret('api_token');
      } catch {
        token = undefined;
      }
      if (!token)
        problems.push({ setting: 'api_token', message: 'is required for basic authentication' });
    } else if (settings.auth_method === 'oauth') {
      if (!settings.client_id)
        problems.push({ setting: 'client_id', message: 'is required for oauth' });
      let secret;
      try {
        secret = getSecret('client_secret');
      } catch {
        secret = undefined;
      }
      if (!secret) problems.push({ setting: 'client_secret', message: 'is required for oauth' });
    }
    if (problems.length > 0) throw problems;
  },
};
