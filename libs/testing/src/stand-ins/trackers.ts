import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback stand-ins of the three kinds of tracker the catalog's ticketing providers talk to
 * (a Jira-style REST v2/v3 tracker, GitHub/Gitea repository issues, Trello-style boards), each
 * a real HTTP server on 127.0.0.1 speaking the API's shape and keeping its tasks in memory.
 * Every stand-in records its requests (method, path with query, headers, body) and has the
 * hostile switches of the design's test plan (`hostile`): connection refused (`down`), a slow
 * answer, any status, a rate limit (429 + `Retry-After`), HTML where JSON is expected, a
 * 10 MB body and a redirect (to the cloud metadata address). Besides, a stand-in can limit its
 * caller to so many requests per second (`limit`, a token bucket): what exceeds it is answered
 * 429 with `Retry-After` in the tracker's own error shape, and `counters` tell how many requests
 * were answered and how many were limited.
 */
export interface RecordedRequest {
  method: string;
  /** Path with the query, as sent. */
  path: string;
  url: URL;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Hostile =
  | { kind: 'slow'; ms: number }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'rateLimit'; retryAfter: string }
  | { kind: 'garbage' }
  | { kind: 'huge' }
  | { kind: 'redirect'; to: string };

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Route = (request: RecordedRequest) => Answer | undefined;

/**
 * A per-second limit of a stand-in: a token bucket of `burst` requests (default `perSecond`,
 * one second's worth) refilled at `perSecond` per second. A request finding the bucket empty is
 * answered 429 with `Retry-After` (whole seconds until the next token, at least 1).
 */
export interface RequestLimit {
  perSecond: number;
  burst?: number;
}

/** Requests a stand-in answered (by its API or a hostile switch) and those `limit` refused. */
export interface StandInCounters {
  answered: number;
  limited: number;
}

/** The answer of a limited request, in the tracker's own error shape. */
export type LimitedAnswer = (retryAfterSeconds: number, limit: RequestLimit) => Answer;

const DEFAULT_LIMITED: LimitedAnswer = (retryAfter, limit) => ({
  status: 429,
  body: { message: 'rate limited' },
  headers: {
    'retry-after': String(retryAfter),
    'x-ratelimit-limit': String(limit.perSecond),
    'x-ratelimit-remaining': '0',
  },
});

/** The 429 shape of each tracker's stand-in (set by its `start...` function). */
const limitedShapes = new WeakMap<HttpStandIn, LimitedAnswer>();

/**
 * The token bucket of `RequestLimit`: `take(now)` answers 0 when the request may pass, else the
 * seconds to wait (`Retry-After`). The bucket starts full; a changed limit starts a new one.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly limit: RequestLimit,
    now: number = performance.now(),
  ) {
    if (!(limit.perSecond > 0)) throw new Error('limit.perSecond must be above 0');
    this.tokens = this.capacity;
    this.last = now;
  }

  get capacity(): number {
    return Math.max(1, this.limit.burst ?? this.limit.perSecond);
  }

  /** Takes a token at `now` (ms, monotonic): 0, or the whole seconds until one is there. */
  take(now: number = performance.now()): number {
    const elapsed = Math.max(0, now - this.last) / 1000;
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.limit.perSecond);
    this.last = Math.max(this.last, now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.limit.perSecond));
  }
}

export interface HttpStandIn {
  url: string;
  requests: RecordedRequest[];
  /** While set, every request gets this answer instead of the API's. */
  hostile?: Hostile;
  /**
   * While set, at most this many requests per second are answered (checked before `hostile`
   * and the API); the others get 429 + `Retry-After`. Setting it starts a full bucket.
   */
  limit?: RequestLimit;
  /** Requests answered and requests refused by `limit` since the start (or a reset to 0). */
  counters: StandInCounters;
  /** Stops listening (connection refused) until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export const METADATA_URL = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const HUGE_BYTES = 10 * 1024 * 1024;

function writeAnswer(response: ServerResponse, answer: Answer): void {
  const text =
    answer.body === undefined
      ? ''
      : typeof answer.body === 'string'
        ? answer.body
        : JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    date: new Date().toUTCString(),
    ...(answer.headers ?? {}),
  });
  response.end(text);
}

/**
 * A JSON API on 127.0.0.1: `route` answers, `undefined` is a 404. `options.limit` starts the
 * stand-in limited (see `HttpStandIn.limit`); `options.limited` shapes the 429 answer.
 */
export async function serveApi(
  route: Route,
  options: { limit?: RequestLimit; limited?: LimitedAnswer } = {},
): Promise<HttpStandIn> {
  const requests: RecordedRequest[] = [];
  const state: { hostile?: Hostile; bucket?: TokenBucket } = {};
  const counters: StandInCounters = { answered: 0, limited: 0 };
  const handle = async (request: IncomingMessage, response: ServerResponse, raw: string) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      url,
      headers: { ...request.headers },
      body: raw,
    };
    requests.push(recorded);
    const bucket = state.bucket;
    const wait = bucket ? bucket.take() : 0;
    if (bucket && wait > 0) {
      counters.limited += 1;
      const limited = limitedShapes.get(standIn) ?? options.limited ?? DEFAULT_LIMITED;
      writeAnswer(response, limited(wait, bucket.limit));
      return;
    }
    counters.answered += 1;
    const hostile = standIn.hostile;
    if (hostile?.kind === 'slow') await new Promise((r) => setTimeout(r, hostile.ms));
    let answer: Answer | undefined;
    if (hostile?.kind === 'status') answer = hostile;
    else if (hostile?.kind === 'rateLimit') {
      answer = {
        status: 429,
        body: { message: 'rate limited' },
        headers: { 'retry-after': hostile.retryAfter },
      };
    } else if (hostile?.kind === 'garbage') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><html><body><h1>Sign in</h1></body></html>');
      return;
    } else if (hostile?.kind === 'huge') {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const write = () => {
        while (sent < HUGE_BYTES) {
          sent += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', write);
            return;
          }
        }
        response.end();
      };
      response.on('error', () => undefined);
      write();
      return;
    } else if (hostile?.kind === 'redirect') {
      answer = { status: 302, headers: { location: hostile.to }, body: '' };
    } else {
      try {
        answer = route(recorded) ?? { status: 404, body: { message: 'Not Found' } };
      } catch (error) {
        answer = { status: 500, body: { message: String(error) } };
      }
    }
    writeAnswer(response, answer);
  };
  let server: Server = createServer();
  const listen = async (port: number) => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        void handle(request, response, Buffer.concat(chunks).toString('utf8'));
      });
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const port = await listen(0);
  if (options.limit) state.bucket = new TokenBucket(options.limit);
  const standIn: HttpStandIn = {
    url: `http://127.0.0.1:${port}`,
    requests,
    get hostile() {
      return state.hostile;
    },
    set hostile(value) {
      state.hostile = value;
    },
    get limit() {
      return state.bucket?.limit;
    },
    set limit(value) {
      state.bucket = value ? new TokenBucket(value) : undefined;
    },
    counters,
    down: stop,
    up: async () => {
      await listen(port);
    },
    close: stop,
  };
  return standIn;
}

function json(body: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(body) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function headerOf(request: RecordedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

// ---------------------------------------------------------------------------------------
// Jira-style tracker: REST v2 and v3 under /rest/api/{2,3}, Basic email:token or an OAuth
// client-credentials bearer token from /rest/oauth2/latest/token.

export interface JiraIssue {
  id: string;
  key: string;
  project: string;
  fields: Record<string, unknown>;
  status: string;
  comments: unknown[];
}

const JIRA_STATUSES: Record<string, { id: string; name: string; category: string }> = {
  'To Do': { id: '10000', name: 'To Do', category: 'new' },
  'In Progress': { id: '3', name: 'In Progress', category: 'indeterminate' },
  Resolved: { id: '5', name: 'Resolved', category: 'done' },
  Closed: { id: '6', name: 'Closed', category: 'done' },
};
const JIRA_TRANSITIONS = [
  { id: '11', name: 'Reopen', to: 'To Do' },
  { id: '21', name: 'Start Progress', to: 'In Progress' },
  { id: '31', name: 'Resolve Issue', to: 'Resolved' },
  { id: '41', name: 'Close Issue', to: 'Closed' },
];

export interface JiraStandIn extends HttpStandIn {
  issues: Map<string, JiraIssue>;
  projects: { id: string; key: string; name: string }[];
  /** OAuth tokens issued so far. */
  issuedTokens: string[];
}

/**
 * Jira's answer past a rate limit: 429, `Retry-After` in seconds, the `X-RateLimit-*` headers
 * (the reset as `yyyy-MM-ddTHH:mmZ`; the token bucket's refill as Jira Data Center sends it,
 * `X-RateLimit-FillRate` tokens per `X-RateLimit-Interval-Seconds`), `RateLimit-Reason` and the
 * REST error collection.
 */
export const jiraLimited: LimitedAnswer = (retryAfter, limit) => ({
  status: 429,
  body: { errorMessages: ['Rate limit exceeded.'], errors: {} },
  headers: {
    'retry-after': String(retryAfter),
    'x-ratelimit-limit': String(limit.perSecond),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': `${new Date(Date.now() + retryAfter * 1000).toISOString().slice(0, 16)}Z`,
    // Whole numbers, as Jira sends them: 0.5/s is 1 token every 2 s.
    'x-ratelimit-fillrate': String(Number.isInteger(limit.perSecond) ? limit.perSecond : 1),
    'x-ratelimit-interval-seconds': String(
      Number.isInteger(limit.perSecond) ? 1 : Math.max(1, Math.round(1 / limit.perSecond)),
    ),
    'ratelimit-reason': 'jira-burst-based',
  },
});

export async function startJiraStandIn(options: {
  email: string;
  apiToken: string;
  clientId: string;
  clientSecret: string;
  projects: { id: string; key: string; name: string }[];
  /** Requests per second answered at most (see `HttpStandIn.limit`); unlimited when unset. */
  limit?: RequestLimit;
}): Promise<JiraStandIn> {
  const issues = new Map<string, JiraIssue>();
  const issuedTokens: string[] = [];
  let next = 1;
  const basic = `Basic ${Buffer.from(`${options.email}:${options.apiToken}`).toString('base64')}`;
  const statusJson = (name: string) => {
    const s = JIRA_STATUSES[name] ?? { id: '0', name, category: 'new' };
    return { id: s.id, name: s.name, statusCategory: { key: s.category } };
  };
  const standIn = (await serveApi((request) => {
    const { method, url } = request;
    if (method === 'POST' && url.pathname === '/rest/oauth2/latest/token') {
      const body = json(request.body);
      if (
        body['grant_type'] !== 'client_credentials' ||
        body['client_id'] !== options.clientId ||
        body['client_secret'] !== options.clientSecret
      ) {
        return { status: 401, body: { error: 'invalid_client' } };
      }
      const token = `jira-oauth-${randomBytes(12).toString('hex')}`;
      issuedTokens.push(token);
      return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: 3600 } };
    }
    const m = /^\/rest\/api\/(2|3)(\/.*)$/.exec(url.pathname);
    if (!m) return undefined;
    const version = m[1];
    const path = m[2] ?? '';
    const auth = headerOf(request, 'authorization');
    const bearerOk = auth?.startsWith('Bearer ') && issuedTokens.includes(auth.slice(7));
    if (auth !== basic && !bearerOk) {
      return { status: 401, body: { errorMessages: ['You are not authenticated.'] } };
    }
    if (method === 'POST' && path === '/issue') {
      const fields = (json(request.body)['fields'] ?? {}) as Record<string, unknown>;
      const projectKey = (fields['project'] as { key?: string } | undefined)?.key;
      const project = standIn.projects.find((p) => p.key === projectKey);
      if (!project)
        return {
          status: 400,
          body: { errorMessages: [], errors: { project: 'valid project is required' } },
        };
      if (typeof fields['summary'] !== 'string' || fields['summary'] === '') {
        return {
          status: 400,
          body: {
            errorMessages: [],
            errors: { summary: 'You must specify a summary of the issue.' },
          },
        };
      }
      const description = fields['description'];
      if (version === '3' ? typeof description !== 'object' : typeof description !== 'string') {
        return {
          status: 400,
          body: { errorMessages: [], errors: { description: 'Operation value must be a string' } },
        };
      }
      const id = String(10000 + next);
      const key = `${project.key}-${next++}`;
      issues.set(key, { id, key, project: project.key, fields, status: 'To Do', comments: [] });
      return {
        status: 201,
        body: { id, key, self: `${standIn.url}/rest/api/${version}/issue/${id}` },
      };
    }
    if (method === 'GET' && (path === '/search' || path === '/search/jql')) {
      if ((version === '3') !== (path === '/search/jql'))
        return { status: 410, body: { errorMessages: ['gone'] } };
      const jql = url.searchParams.get('jql') ?? '';
      const label = /^labels = "((?:[^"\\]|\\.)*)"$/.exec(jql)?.[1]?.replace(/\\(.)/g, '$1');
      if (label === undefined) return { status: 400, body: { errorMessages: [`bad jql: ${jql}`] } };
      const max = Number(url.searchParams.get('maxResults') ?? '50');
      const found = [...issues.values()].filter((i) =>
        (i.fields['labels'] as string[] | undefined)?.includes(label),
      );
      return {
        status: 200,
        body: {
          issues: found.slice(0, max).map((i) => ({ id: i.id, key: i.key })),
          total: found.length,
        },
      };
    }
    if (method === 'GET' && path === '/project/search') {
      const startAt = Number(url.searchParams.get('startAt') ?? '0');
      const max = Math.min(Number(url.searchParams.get('maxResults') ?? '50'), 50);
      const values = standIn.projects.slice(startAt, startAt + max);
      return {
        status: 200,
        body: {
          startAt,
          maxResults: max,
          total: standIn.projects.length,
          isLast: startAt + max >= standIn.projects.length,
          values,
        },
      };
    }
    const project = /^\/project\/([A-Z0-9]+)$/.exec(path);
    if (method === 'GET' && project) {
      const p = standIn.projects.find((x) => x.key === project[1]);
      return p
        ? { status: 200, body: p }
        : { status: 404, body: { errorMessages: ['No project could be found'] } };
    }
    const issuePath = /^\/issue\/([A-Z0-9]+-\d+)(\/transitions|\/comment)?$/.exec(path);
    if (!issuePath) return undefined;
    const issue = issues.get(issuePath[1] ?? '');
    if (!issue)
      return {
        status: 404,
        body: { errorMessages: ['Issue does not exist or you do not have permission to see it.'] },
      };
    if (method === 'GET' && !issuePath[2]) {
      return {
        status: 200,
        body: { id: issue.id, key: issue.key, fields: { status: statusJson(issue.status) } },
      };
    }
    if (method === 'GET' && issuePath[2] === '/transitions') {
      return {
        status: 200,
        body: {
          transitions: JIRA_TRANSITIONS.filter((t) => t.to !== issue.status).map((t) => ({
            id: t.id,
            name: t.name,
            to: statusJson(t.to),
          })),
        },
      };
    }
    if (method === 'POST' && issuePath[2] === '/transitions') {
      const id = (json(request.body)['transition'] as { id?: string } | undefined)?.id;
      const transition = JIRA_TRANSITIONS.find((t) => t.id === id && t.to !== issue.status);
      if (!transition)
        return { status: 400, body: { errorMessages: ['Transition id is not valid'] } };
      issue.status = transition.to;
      return { status: 204 };
    }
    if (method === 'POST' && issuePath[2] === '/comment') {
      const body = json(request.body)['body'];
      if (version === '3' ? typeof body !== 'object' : typeof body !== 'string') {
        return { status: 400, body: { errorMessages: ['Comment body is not valid'] } };
      }
      issue.comments.push(body);
      return { status: 201, body: { id: String(issue.comments.length) } };
    }
    return undefined;
  })) as JiraStandIn;
  limitedShapes.set(standIn, jiraLimited);
  standIn.limit = options.limit;
  standIn.issues = issues;
  standIn.projects = options.projects;
  standIn.issuedTokens = issuedTokens;
  return standIn;
}

// ---------------------------------------------------------------------------------------
// GitHub (REST under /) or Gitea (REST under /api/v1, label ids): repository issues, comments,
// labels with `Link` pagination, `X-RateLimit-*` headers, Bearer token.

export interface RepoIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: string[];
  comments: string[];
}

export interface RepoStandIn extends HttpStandIn {
  /** Base of the API (`url` for GitHub, `url/api/v1` for Gitea). */
  apiUrl: string;
  issues: RepoIssue[];
  labels: { id: number; name: string }[];
}

/** GitHub's answer past a rate limit: 429, `Retry-After`, `X-RateLimit-*` (reset in epoch seconds). */
export const repoLimited: LimitedAnswer = (retryAfter, limit) => ({
  status: 429,
  body: {
    message: 'API rate limit exceeded',
    documentation_url:
      'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api',
  },
  headers: {
    'retry-after': String(retryAfter),
    'x-ratelimit-limit': String(limit.perSecond),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + retryAfter),
  },
});

export async function startRepoStandIn(options: {
  flavor: 'github' | 'gitea';
  owner: string;
  repo: string;
  token: string;
  /** Labels the repository has already (Gitea lists them 50 per page). */
  labels?: string[];
  /** Requests per second answered at most (see `HttpStandIn.limit`); unlimited when unset. */
  limit?: RequestLimit;
}): Promise<RepoStandIn> {
  const prefix = options.flavor === 'gitea' ? '/api/v1' : '';
  const issues: RepoIssue[] = [];
  const labels = (options.labels ?? []).map((name, i) => ({ id: i + 1, name }));
  const repoPath = `${prefix}/repos/${options.owner}/${options.repo}`;
  const html = () => `${standIn.url}/${options.owner}/${options.repo}/issues`;
  const issueJson = (i: RepoIssue) => ({
    id: 900000 + i.number,
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state,
    ...(options.flavor === 'github' ? { state_reason: i.state_reason } : {}),
    labels: i.labels.map((name) => ({ name, id: labels.find((l) => l.name === name)?.id })),
    html_url: `${html()}/${i.number}`,
  });
  const labelName = (value: unknown): string | undefined => {
    if (options.flavor === 'github') return typeof value === 'string' ? value : undefined;
    return labels.find((l) => l.id === value)?.name;
  };
  const standIn = (await serveApi((request) => {
    const { method, url } = request;
    const rate = {
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    };
    const answer = (
      status: number,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Answer => ({ status, body, headers: { ...rate, ...headers } });
    const auth = headerOf(request, 'authorization');
    if (auth !== `Bearer ${options.token}` && auth !== `token ${options.token}`) {
      return answer(401, { message: 'Bad credentials' });
    }
    if (!url.pathname.startsWith(repoPath)) return answer(404, { message: 'Not Found' });
    const rest = url.pathname.slice(repoPath.length);
    if (method === 'GET' && rest === '') {
      return answer(200, {
        id: 4242,
        full_name: `${options.owner}/${options.repo}`,
        name: options.repo,
      });
    }
    if (rest === '/labels' && method === 'GET' && options.flavor === 'gitea') {
      const page = Number(url.searchParams.get('page') ?? '1');
      const limit = Math.min(Number(url.searchParams.get('limit') ?? '50'), 50);
      const slice = labels.slice((page - 1) * limit, page * limit);
      const headers: Record<string, string> = {};
      if (page * limit < labels.length) {
        headers['link'] =
          `<${standIn.url}${repoPath}/labels?limit=${limit}&page=${page + 1}>; rel="next"`;
      }
      return answer(200, slice, headers);
    }
    if (rest === '/labels' && method === 'POST' && options.flavor === 'gitea') {
      const body = json(request.body);
      if (typeof body['name'] !== 'string' || typeof body['color'] !== 'string')
        return answer(422, { message: 'name and color are required' });
      if (labels.some((l) => l.name === body['name']))
        return answer(409, { message: 'label exists' });
      const label = { id: labels.length + 1, name: body['name'] };
      labels.push(label);
      return answer(201, label);
    }
    if (rest === '/issues' && method === 'POST') {
      const body = json(request.body);
      if (typeof body['title'] !== 'string' || body['title'] === '')
        return answer(422, {
          message: 'Validation Failed',
          errors: [{ field: 'title', code: 'missing_field' }],
        });
      const names = ((body['labels'] as unknown[] | undefined) ?? []).map(labelName);
      if (names.some((n) => n === undefined))
        return answer(422, { message: 'label does not exist' });
      const issue: RepoIssue = {
        number: issues.length + 1,
        title: body['title'],
        body: String(body['body'] ?? ''),
        state: 'open',
        state_reason: null,
        labels: names as string[],
        comments: [],
      };
      issues.push(issue);
      return answer(201, issueJson(issue));
    }
    if (rest === '/issues' && method === 'GET') {
      const wanted = url.searchParams.get('labels');
      const state = url.searchParams.get('state') ?? 'open';
      const perPage = Number(
        url.searchParams.get(options.flavor === 'gitea' ? 'limit' : 'per_page') ?? '30',
      );
      const found = issues
        .filter((i) => state === 'all' || i.state === state)
        .filter((i) => !wanted || wanted.split(',').every((l) => i.labels.includes(l)))
        .sort((a, b) => b.number - a.number);
      return answer(200, found.slice(0, perPage).map(issueJson));
    }
    const m = /^\/issues\/(\d+)(\/comments|\/labels(?:\/(.+))?)?$/.exec(rest);
    const issue = m ? issues.find((i) => i.number === Number(m[1])) : undefined;
    if (!m || !issue) return answer(404, { message: 'Not Found' });
    if (method === 'GET' && !m[2]) return answer(200, issueJson(issue));
    if (method === 'PATCH' && !m[2]) {
      const body = json(request.body);
      if (body['state'] !== 'open' && body['state'] !== 'closed')
        return answer(422, { message: 'Validation Failed' });
      if (options.flavor === 'gitea' && 'state_reason' in body)
        return answer(422, { message: 'unknown field state_reason' });
      issue.state = body['state'];
      issue.state_reason =
        issue.state === 'closed'
          ? String(body['state_reason'] ?? 'completed')
          : body['state_reason']
            ? String(body['state_reason'])
            : null;
      return answer(200, issueJson(issue));
    }
    if (method === 'POST' && m[2] === '/comments') {
      const body = json(request.body);
      if (typeof body['body'] !== 'string') return answer(422, { message: 'body is required' });
      issue.comments.push(body['body']);
      return answer(201, { id: issue.comments.length, body: body['body'] });
    }
    if (method === 'POST' && m[2] === '/labels') {
      const names = ((json(request.body)['labels'] as unknown[] | undefined) ?? []).map(labelName);
      if (names.some((n) => n === undefined))
        return answer(422, { message: 'label does not exist' });
      for (const n of names as string[]) if (!issue.labels.includes(n)) issue.labels.push(n);
      return answer(
        200,
        issue.labels.map((name) => ({ name })),
      );
    }
    if (method === 'DELETE' && m[3]) {
      // GitHub names the label in the path, Gitea gives its id.
      const segment = decodeURIComponent(m[3]);
      const name =
        options.flavor === 'gitea'
          ? (labels.find((l) => String(l.id) === segment)?.name ?? `#${segment}`)
          : segment;
      if (!issue.labels.includes(name)) return answer(404, { message: 'Label does not exist' });
      issue.labels = issue.labels.filter((l) => l !== name);
      return answer(204);
    }
    return undefined;
  })) as RepoStandIn;
  limitedShapes.set(standIn, repoLimited);
  standIn.limit = options.limit;
  standIn.apiUrl = `${standIn.url}${prefix}`;
  standIn.issues = issues;
  standIn.labels = labels;
  return standIn;
}

// ---------------------------------------------------------------------------------------
// Trello-style boards: /1/boards/{id}/lists|labels|cards/all, /1/cards, /1/labels, with
// `key` and `token` in the query of every request.

export interface BoardCard {
  id: string;
  shortLink: string;
  name: string;
  desc: string;
  idList: string;
  closed: boolean;
  idLabels: string[];
  comments: string[];
}

export interface BoardStandIn extends HttpStandIn {
  boardId: string;
  lists: { id: string; name: string }[];
  labels: { id: string; name: string }[];
  cards: BoardCard[];
}

let hexCounter = 0;
/** A Trello-style 24-hex id, increasing with time like the real ones. */
export function boardId(): string {
  hexCounter += 1;
  return `${Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0')}${hexCounter.toString(16).padStart(16, '0')}`;
}

/** Trello's answer past a rate limit: 429 with `Retry-After` and a JSON error. */
export const boardLimited: LimitedAnswer = (retryAfter) => ({
  status: 429,
  body: { error: 'API_TOKEN_LIMIT_EXCEEDED', message: 'Rate limit exceeded' },
  headers: { 'retry-after': String(retryAfter) },
});

export async function startBoardStandIn(options: {
  key: string;
  token: string;
  lists: string[];
  /** Requests per second answered at most (see `HttpStandIn.limit`); unlimited when unset. */
  limit?: RequestLimit;
}): Promise<BoardStandIn> {
  const board = boardId();
  const lists = options.lists.map((name) => ({ id: boardId(), name }));
  const labels: { id: string; name: string }[] = [];
  const cards: BoardCard[] = [];
  const cardJson = (c: BoardCard) => ({
    id: c.id,
    shortLink: c.shortLink,
    name: c.name,
    desc: c.desc,
    idList: c.idList,
    closed: c.closed,
    url: `https://trello.com/c/${c.shortLink}/${c.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    labels: c.idLabels.map((id) => labels.find((l) => l.id === id)).filter(Boolean),
  });
  const standIn = (await serveApi((request) => {
    const { method, url } = request;
    const q = url.searchParams;
    if (q.get('key') !== options.key) return { status: 401, body: 'invalid key' };
    if (q.get('token') !== options.token) return { status: 401, body: 'invalid token' };
    const path = url.pathname;
    if (method === 'GET' && path === `/1/boards/${board}/lists`)
      return { status: 200, body: standIn.lists };
    if (method === 'GET' && path === `/1/boards/${board}/labels`)
      return { status: 200, body: labels };
    if (method === 'POST' && path === '/1/labels') {
      if (q.get('idBoard') !== board || !q.get('name'))
        return { status: 400, body: 'invalid value for idBoard' };
      const label = { id: boardId(), name: q.get('name') ?? '' };
      labels.push(label);
      return { status: 200, body: label };
    }
    if (method === 'GET' && path === `/1/boards/${board}/cards/all`) {
      const limit = Math.min(Number(q.get('limit') ?? '1000'), 1000);
      const before = q.get('before');
      const page = [...cards]
        .sort((a, b) => (a.id < b.id ? 1 : -1))
        .filter((c) => !before || c.id < before)
        .slice(0, limit);
      return { status: 200, body: page.map(cardJson) };
    }
    if (method === 'POST' && path === '/1/cards') {
      const list = standIn.lists.find((l) => l.id === q.get('idList'));
      if (!list) return { status: 400, body: 'invalid value for idList' };
      const idLabels = (q.get('idLabels') ?? '').split(',').filter(Boolean);
      if (idLabels.some((id) => !labels.some((l) => l.id === id)))
        return { status: 400, body: 'invalid value for idLabels' };
      const id = boardId();
      const card: BoardCard = {
        id,
        shortLink: id.slice(-8),
        name: q.get('name') ?? '',
        desc: q.get('desc') ?? '',
        idList: list.id,
        closed: false,
        idLabels,
        comments: [],
      };
      cards.push(card);
      return { status: 200, body: cardJson(card) };
    }
    const m = /^\/1\/cards\/([0-9a-f]{24})(\/actions\/comments)?$/.exec(path);
    const card = m ? cards.find((c) => c.id === m[1]) : undefined;
    if (!m) return undefined;
    if (!card) return { status: 404, body: 'The requested resource was not found.' };
    if (method === 'POST' && m[2]) {
      if (!q.get('text')) return { status: 400, body: 'invalid value for text' };
      card.comments.push(q.get('text') ?? '');
      return {
        status: 200,
        body: { id: boardId(), type: 'commentCard', data: { text: q.get('text') } },
      };
    }
    if (method === 'PUT' && !m[2]) {
      if (q.has('idList')) {
        if (!standIn.lists.some((l) => l.id === q.get('idList')))
          return { status: 400, body: 'invalid value for idList' };
        card.idList = q.get('idList') ?? card.idList;
      }
      if (q.has('closed')) card.closed = q.get('closed') === 'true';
      return { status: 200, body: cardJson(card) };
    }
    if (method === 'GET' && !m[2]) {
      const list = standIn.lists.find((l) => l.id === card.idList);
      return {
        status: 200,
        body: { ...cardJson(card), ...(q.get('list') === 'true' ? { list } : {}) },
      };
    }
    return undefined;
  })) as BoardStandIn;
  limitedShapes.set(standIn, boardLimited);
  standIn.limit = options.limit;
  standIn.boardId = board;
  standIn.lists = lists;
  standIn.labels = labels;
  standIn.cards = cards;
  return standIn;
}
