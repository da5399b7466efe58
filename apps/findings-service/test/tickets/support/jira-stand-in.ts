import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInIssue {
  id: string;
  key: string;
  project: string;
  summary: string;
  description: string;
  labels: string[];
  status: { name: string; category: 'new' | 'indeterminate' | 'done' };
  comments: string[];
}

/**
 * A loopback tracker in the shape of Jira REST v2 (issue, search by label, project search,
 * comments, transitions): a real HTTP server on 127.0.0.1 that keeps its issues in memory and
 * records every request with its Authorization header.
 */
export interface JiraStandIn {
  url: string;
  issues: StandInIssue[];
  requests: { line: string; authorization: string | undefined }[];
  /** Answers every request with this status while set (an unreachable or refusing tracker). */
  failWith: number | undefined;
  close(): Promise<void>;
}

const TRANSITIONS = [
  { id: '11', name: 'Reopen', to: { name: 'To Do', statusCategory: { key: 'new' } } },
  {
    id: '21',
    name: 'Start',
    to: { name: 'In Progress', statusCategory: { key: 'indeterminate' } },
  },
  { id: '31', name: 'Resolve', to: { name: 'Done', statusCategory: { key: 'done' } } },
];

export async function startJiraStandIn(
  projects = [
    { key: 'SEC', name: 'Security' },
    { key: 'OPS', name: 'Operations' },
  ],
): Promise<JiraStandIn> {
  const state: JiraStandIn = {
    url: '',
    issues: [],
    requests: [],
    failWith: undefined,
    close: async () => undefined,
  };
  const view = (i: StandInIssue) => ({
    id: i.id,
    key: i.key,
    fields: {
      summary: i.summary,
      labels: i.labels,
      status: { name: i.status.name, statusCategory: { key: i.status.category } },
    },
  });
  const find = (idOrKey: string) => state.issues.find((i) => i.id === idOrKey || i.key === idOrKey);
  const handle = (req: IncomingMessage, url: URL, body: string): [number, unknown] => {
    if (state.failWith !== undefined) return [state.failWith, { errorMessages: ['failing'] }];
    const path = url.pathname;
    if (req.method === 'POST' && path === '/rest/api/2/issue') {
      const fields = (JSON.parse(body) as { fields: Record<string, unknown> }).fields;
      const project = (fields['project'] as { key?: string } | undefined)?.key ?? '';
      if (!projects.some((p) => p.key === project))
        return [400, { errors: { project: 'unknown' } }];
      const n = state.issues.length + 1;
      const issue: StandInIssue = {
        id: String(10_000 + n),
        key: `${project}-${n}`,
        project,
        summary: String(fields['summary'] ?? ''),
        description: String(fields['description'] ?? ''),
        labels: (fields['labels'] as string[] | undefined) ?? [],
        status: { name: 'To Do', category: 'new' },
        comments: [],
      };
      state.issues.push(issue);
      return [
        201,
        { id: issue.id, key: issue.key, self: `${state.url}/rest/api/2/issue/${issue.id}` },
      ];
    }
    if (req.method === 'GET' && path === '/rest/api/2/search') {
      const label = /labels="([^"]*)"/.exec(url.searchParams.get('jql') ?? '')?.[1];
      const found = state.issues.filter((i) => label !== undefined && i.labels.includes(label));
      return [200, { total: found.length, issues: found.slice(0, 1).map(view) }];
    }
    if (req.method === 'GET' && path === '/rest/api/2/project/search') {
      return [200, { isLast: true, values: projects }];
    }
    const issuePath = /^\/rest\/api\/2\/issue\/([^/]+)(\/comment|\/transitions)?$/.exec(path);
    const issue = issuePath ? find(decodeURIComponent(issuePath[1] ?? '')) : undefined;
    if (issuePath && !issue) return [404, { errorMessages: ['Issue does not exist'] }];
    if (issue && req.method === 'GET' && !issuePath?.[2]) return [200, view(issue)];
    if (issue && req.method === 'POST' && issuePath?.[2] === '/comment') {
      issue.comments.push(String((JSON.parse(body) as { body?: string }).body ?? ''));
      return [201, { id: String(issue.comments.length) }];
    }
    if (issue && req.method === 'GET' && issuePath?.[2] === '/transitions') {
      return [200, { transitions: TRANSITIONS }];
    }
    if (issue && req.method === 'POST' && issuePath?.[2] === '/transitions') {
      const id = (JSON.parse(body) as { transition: { id: string } }).transition.id;
      const to = TRANSITIONS.find((t) => t.id === id)?.to;
      if (!to) return [400, { errorMessages: ['no such transition'] }];
      issue.status = { name: to.name, category: to.statusCategory.key as 'new' };
      return [204, ''];
    }
    return [404, { errorMessages: [`no route ${req.method} ${path}`] }];
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      state.requests.push({
        line: `${req.method} ${url.pathname}${url.search}`,
        authorization: req.headers.authorization,
      });
      let answer: [number, unknown];
      try {
        answer = handle(req, url, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        answer = [500, { error: String(error) }];
      }
      const [status, body] = answer;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status === 204 ? '' : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
