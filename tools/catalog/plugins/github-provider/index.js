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
import { getSecret } from 'findsvc:plugin/host@0.1.0';

import {
  call,
  configProblems,
  fail,
  findingLabel,
  groupDescription,
  groupLabel,
  header,
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
