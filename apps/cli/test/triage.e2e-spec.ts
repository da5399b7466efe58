import { waitFor } from '@platform/testing';
import {
  bearer,
  createProduct,
  createProject,
  FINDINGS_ADMIN_EMAIL as ADMIN_EMAIL,
  FINDINGS_ADMIN_PASSWORD as ADMIN_PASSWORD,
  fixturePath,
  startIngestion,
  type IngestionStack,
} from './support/services';
import { cliHome, describeRun, type CliHome } from './support/run-cli';

// findings get/status and suppress create/list/delete against the real findings API and worker:
// the findings come from a real upload of the flawfinder fixture.
let stack: IngestionStack;
let home: CliHome;
let project: { id: string; name: string };
let ids: string[];

interface Row {
  id: string;
  status: string;
  severity: string;
  rule_id: string;
  scanner: string;
}

async function json<T>(args: string[]): Promise<T> {
  const r = await home.run([...args, '--json']);
  expect(describeRun(r)).toMatch(/^exit 0/);
  return JSON.parse(r.stdout) as T;
}

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
  home = cliHome();
  project = await createProject(stack.t, bearer(stack.admin));
  const product = await createProduct(stack.t, bearer(stack.admin), project.id);
  const login = await home.run(
    ['login', 'findings', '--url', stack.t.url, '--email', ADMIN_EMAIL, '--password-stdin'],
    { stdin: `${ADMIN_PASSWORD}\n` },
  );
  if (login.code !== 0) throw new Error(`login failed: ${describeRun(login)}`);
  const up = await home.run([
    'upload',
    fixturePath('flawfinder-vulnerable.sarif'),
    '--product',
    product.id,
    '--wait',
  ]);
  if (up.code !== 0) throw new Error(`upload failed: ${describeRun(up)}`);
  const page = await json<{ items: Row[] }>(['findings', 'list', '--product', product.id]);
  ids = page.items.map((f) => f.id);
  if (ids.length < 3) throw new Error(`expected 3+ findings, got ${ids.length}`);
}, 90_000);

afterAll(async () => {
  home?.remove();
  await stack?.close();
});

describe('findings get / status', () => {
  it('get shows one finding as FIELD/VALUE rows and as JSON; unknown 5, bad id 2', async () => {
    const f = await json<Row>(['findings', 'get', ids[0]]);
    expect(f).toMatchObject({ id: ids[0], status: 'new' });
    const table = await home.run(['findings', 'get', ids[0]]);
    expect(table.stdout).toMatch(new RegExp(`^id\\s+${ids[0]}$`, 'm'));
    expect(table.stdout).toMatch(/^status\s+new$/m);
    const unknown = await home.run(['findings', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toMatch(/^platform: findings service answered 404/);
    expect((await home.run(['findings', 'get', '42'])).code).toBe(2);
  });

  it('status of one finding: PATCH; a missing justification is refused (5) and nothing changes', async () => {
    const refused = await home.run(['findings', 'status', ids[0], '--to', 'false_positive']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('justification_required');
    expect((await json<Row>(['findings', 'get', ids[0]])).status).toBe('new');

    const moved = await home.run([
      'findings',
      'status',
      ids[0],
      '--to',
      'false_positive',
      '--reason',
      'test code only',
    ]);
    expect(describeRun(moved)).toMatch(/^exit 0/);
    expect(moved.stdout).toMatch(new RegExp(`^${ids[0]}\\s+false_positive\\s`, 'm'));
    expect((await json<Row>(['findings', 'get', ids[0]])).status).toBe('false_positive');
  });

  it('status of several: the bulk route (matched/changed); waiting in bulk is refused (5)', async () => {
    const result = await json<{ matched: number; changed: number }>([
      'findings',
      'status',
      ids[1],
      ids[2],
      '--to',
      'confirmed',
    ]);
    expect(result).toMatchObject({ matched: 2, changed: 2 });
    for (const id of [ids[1], ids[2]]) {
      expect((await json<Row>(['findings', 'get', id])).status).toBe('confirmed');
    }
    const waiting = await home.run([
      'findings',
      'status',
      ids[1],
      ids[2],
      '--to',
      'waiting',
      '--reason',
      'vendor',
      '--until',
      new Date(Date.now() + 86_400_000).toISOString(),
    ]);
    expect(waiting.code).toBe(5);
    expect(waiting.stderr).toContain('bulk_waiting_refused');
  });

  it('bad input is exit 2 before anything is sent', async () => {
    for (const args of [
      ['findings', 'status', ids[1], '--to', 'renewed'],
      ['findings', 'status', ids[1]],
      ['findings', 'status', 'nope', '--to', 'confirmed'],
      ['findings', 'status', ids[1], '--to', 'risk_accepted', '--until', 'next week'],
    ]) {
      const r = await home.run(args);
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 2]);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('suppress create / list / delete', () => {
  it("creates a project's rule (by project name), lists it, applies it with --run, deletes it", async () => {
    const target = await json<Row>(['findings', 'get', ids[1]]);
    const query = `rule:"${target.rule_id}"`;
    const created = await json<{ id: string; name: string; enabled: boolean }>([
      'suppress',
      'create',
      '--project',
      project.name,
      '--name',
      'known pattern',
      '--query',
      query,
      '--reason',
      'reviewed',
      '--run',
    ]);
    expect(created).toMatchObject({ name: 'known pattern', enabled: true });
    // The run applies the rule to the findings already there (the worker does it).
    const rule = await waitFor(
      async () => {
        const [r] = await json<
          { last_run: { state: string } | null; suppressed_findings: number }[]
        >(['suppress', 'list', '--project', project.id]);
        if (r.last_run?.state !== 'completed') throw new Error(`run: ${r.last_run?.state}`);
        return r;
      },
      { what: 'the suppression run', timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(rule.suppressed_findings).toBeGreaterThanOrEqual(1);
    const listed = await home.run(['suppress', 'list', '--project', project.id]);
    expect(describeRun(listed)).toMatch(/^exit 0/);
    expect(listed.stdout).toMatch(new RegExp(`^${created.id}\\s+known pattern\\s+true\\s`, 'm'));

    const refused = await home.run([
      'suppress',
      'create',
      '--project',
      project.id,
      '--name',
      'all',
      '--query',
      'anything',
    ]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('suppression_rule_invalid');

    const del = await home.run(['suppress', 'delete', created.id, '--project', project.id]);
    expect(describeRun(del)).toMatch(/^exit 0/);
    expect(await json<unknown[]>(['suppress', 'list', '--project', project.id])).toEqual([]);
    const again = await home.run(['suppress', 'delete', created.id, '--project', project.id]);
    expect(again.code).toBe(5);
    const noProject = await home.run(['suppress', 'list', '--project', 'no-such-project']);
    expect(noProject.code).toBe(2);
  });
});
