import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  bearer,
  fixturePath,
  createProduct,
  createProject,
  FINDINGS_ADMIN_EMAIL as ADMIN_EMAIL,
  FINDINGS_ADMIN_PASSWORD as ADMIN_PASSWORD,
  freshServiceAccount,
  grant,
  startIngestion,
  type IngestionStack,
} from './support/services';
import { cliHome, describeRun, type CliHome } from './support/run-cli';

// The CI gate end to end: the real findings API and worker (PostgreSQL, Redis) in this process,
// the CLI as a child process signed in with a real session.
let stack: IngestionStack;
let home: CliHome;
let product: { id: string; name: string; project: string };

/** A SARIF with one note-level result (ingested as LOW): nothing for a high-severity gate. */
function lowOnlySarif(): string {
  const file = join(home.dir, 'low-only.sarif');
  writeFileSync(
    file,
    JSON.stringify({
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'lint-only', rules: [] } },
          results: [
            {
              ruleId: 'style-1',
              level: 'note',
              message: { text: 'a note' },
              locations: [
                {
                  physicalLocation: {
                    artifactLocation: { uri: 'src/a.c' },
                    region: { startLine: 3 },
                  },
                },
              ],
            },
          ],
        },
      ],
    }),
  );
  return file;
}

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
  home = cliHome();
  const project = await createProject(stack.t, bearer(stack.admin));
  const p = await createProduct(stack.t, bearer(stack.admin), project.id);
  product = { id: p.id, name: p.name, project: project.name };
  const login = await home.run(
    ['login', 'findings', '--url', stack.t.url, '--email', ADMIN_EMAIL, '--password-stdin'],
    {
      stdin: `${ADMIN_PASSWORD}\n`,
    },
  );
  if (login.code !== 0) throw new Error(`login failed: ${describeRun(login)}`);
}, 60_000);

afterAll(async () => {
  home?.remove();
  await stack?.close();
});

describe('platform login findings', () => {
  it('stores the session in a 0600 file inside a 0700 directory', () => {
    expect(statSync(home.credentials).mode & 0o777).toBe(0o600);
    expect(statSync(join(home.dir, 'platform')).mode & 0o777).toBe(0o700);
  });

  it('refuses a wrong password with exit 3 and a clear message', async () => {
    const other = cliHome();
    const r = await other.run(
      ['login', 'findings', '--url', stack.t.url, '--email', ADMIN_EMAIL, '--password-stdin'],
      {
        stdin: 'wrong-password',
      },
    );
    other.remove();
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('wrong email or password');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('platform upload --wait --fail-on (the CI gate)', () => {
  it('exits 1 when the report brings a new high-severity finding', async () => {
    const r = await home.run([
      'upload',
      fixturePath('flawfinder-vulnerable.sarif'),
      '--product',
      product.id,
      '--format',
      'sarif',
      '--wait',
      '--fail-on',
      'severity:high status:new',
    ]);
    expect({ code: r.code, out: r.stdout }).toMatchObject({ code: 1 });
    expect(r.stdout).toContain('gate matched');
    expect(r.stdout).toContain('HIGH');
  });

  it("gates on the uploaded report's own findings: an older report's high finding does not fail it", async () => {
    // The product already holds the flawfinder HIGH findings (status new) of the test above.
    const args = ['upload', lowOnlySarif(), '--product', product.id, '--fail-on'];
    const own = await home.run([...args, 'severity:high status:new', '--json']);
    expect(describeRun(own)).toMatch(/^exit 0/);
    const out = JSON.parse(own.stdout) as {
      report: { id: string; counts: { new: number; updated: number } };
      gate: { scope: string; matched: boolean };
    };
    expect(out.gate).toMatchObject({ scope: 'report', matched: false });
    // The same gate over the whole product matches the older report's findings.
    const whole = await home.run([
      ...args,
      'severity:high status:new',
      '--fail-on-scope',
      'product',
    ]);
    expect(describeRun(whole)).toMatch(/^exit 1/);
    expect(whole.stdout).toContain('findings of the product match');
    // A finding this report only saw again (not created) is its own too: the note-level one.
    const seen = await home.run([...args, 'severity:low']);
    expect(describeRun(seen)).toMatch(/^exit 1/);
    expect(seen.stdout).toContain('findings of this report match');
    const bad = await home.run([...args, 'severity:low', '--fail-on-scope', 'project']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^platform: --fail-on-scope must be report or product/);
  });

  it('exits 0 for a report without one, named project/product, with --json', async () => {
    const project = await createProject(stack.t, bearer(stack.admin));
    const fresh = await createProduct(stack.t, bearer(stack.admin), project.id);
    const r = await home.run([
      'upload',
      lowOnlySarif(),
      '--product',
      `${project.name}/${fresh.name}`,
      '--fail-on',
      'severity:high status:new',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      report: { status: string; counts: { new: number } };
      gate: { matched: boolean };
    };
    expect(out.report).toMatchObject({ status: 'completed', counts: { new: 1 } });
    expect(out.gate.matched).toBe(false);
  });

  it('a service-account key from the environment uploads and gates without a login', async () => {
    const sa = await freshServiceAccount(stack.t, stack.admin);
    for (const permission of ['upload_report', 'read_reports', 'read_findings']) {
      await grant(stack.t, stack.admin, sa.id, {
        permission,
        level: 'product',
        product_id: product.id,
      }).expect(201);
    }
    const keyHome = cliHome({
      PLATFORM_FINDINGS_URL: stack.t.url,
      PLATFORM_FINDINGS_API_KEY: sa.key,
    });
    const r = await keyHome.run([
      'upload',
      fixturePath('flawfinder-vulnerable.sarif'),
      '--product',
      product.id,
      '--fail-on',
      'severity:high',
    ]);
    keyHome.remove();
    expect(describeRun(r)).toMatch(/^exit 1/);
  });
});

describe('jobs and findings', () => {
  it('jobs list --report finds the ingestion job, jobs get shows it; an unknown job is exit 5', async () => {
    const up = await home.run([
      'upload',
      lowOnlySarif(),
      '--product',
      product.id,
      '--wait',
      '--json',
    ]);
    expect(describeRun(up)).toMatch(/^exit 0/);
    const reportId = (JSON.parse(up.stdout) as { report: { id: string } }).report.id;
    const list = await home.run(['jobs', 'list', '--report', reportId, '--json']);
    expect(describeRun(list)).toMatch(/^exit 0/);
    const jobs = JSON.parse(list.stdout) as { id: string; report_id: string; state: string }[];
    expect(jobs).toEqual([expect.objectContaining({ report_id: reportId, state: 'completed' })]);
    const get = await home.run(['jobs', 'get', jobs[0].id]);
    expect(describeRun(get)).toMatch(/^exit 0/);
    expect(get.stdout).toMatch(/state\s+completed/);
    expect(get.stdout).toMatch(/counts\s+1 results, \d new/);
    const missing = await home.run(['jobs', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('404');
  });

  it('findings list --query shows the product high findings as a table', async () => {
    const r = await home.run([
      'findings',
      'list',
      '--product',
      product.id,
      '--query',
      'severity:high',
    ]);
    expect(describeRun(r)).toMatch(/^exit 0/);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+SEVERITY\s+STATUS\s+PRODUCT\s+TITLE\s+LOCATION$/);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((l) => /\sHIGH\s/.test(l) && l.includes('vulnerable.c'))).toBe(
      true,
    );
  });
});

describe('bad input: a clear message and an exit code, never a stack trace', () => {
  const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at /);

  it('a missing file is exit 2', async () => {
    const r = await home.run(['upload', join(home.dir, 'nope.sarif'), '--product', product.id]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no such file');
    noStack(r.stderr);
  });

  it('an unknown --format is exit 2; a file that is not SARIF fails to ingest with exit 6', async () => {
    expect(
      (await home.run(['upload', lowOnlySarif(), '--product', product.id, '--format', 'xml'])).code,
    ).toBe(2);
    const r = await home.run([
      'upload',
      fixturePath('malformed.sarif'),
      '--product',
      product.id,
      '--format',
      'sarif',
      '--wait',
    ]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('report_malformed');
    noStack(r.stderr);
  });

  it('a gate query with a syntax error is exit 2 before anything is uploaded', async () => {
    const r = await home.run([
      'upload',
      lowOnlySarif(),
      '--product',
      product.id,
      '--fail-on',
      'severity:',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--fail-on');
    expect(r.stderr).not.toContain('uploaded');
  });

  it('an unknown product name is exit 2', async () => {
    const r = await home.run(['upload', lowOnlySarif(), '--product', 'no-such-product-anywhere']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no product named');
  });

  it('an invalid stored token without refresh is exit 3; an expired one is refreshed', async () => {
    const stored = JSON.parse(readFileSync(home.credentials, 'utf8'));
    const broken = cliHome();
    mkdirSync(join(broken.dir, 'platform'), { recursive: true, mode: 0o700 });
    writeFileSync(
      broken.credentials,
      JSON.stringify({
        findings: {
          ...stored.findings,
          access_token: 'expired.jwt.token',
          refresh_token: undefined,
        },
      }),
      { mode: 0o600 },
    );
    for (const args of [
      ['findings', 'list'],
      ['findings', 'get', '00000000-0000-4000-8000-000000000000'],
      ['findings', 'status', '00000000-0000-4000-8000-000000000000', '--to', 'confirmed'],
    ]) {
      const r = await broken.run(args);
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 3]);
      expect(r.stderr).toContain('platform login findings');
      noStack(r.stderr);
    }
    // with the refresh cookie the CLI gets a new access token and rewrites the file
    writeFileSync(
      broken.credentials,
      JSON.stringify({ findings: { ...stored.findings, access_token: 'expired.jwt.token' } }),
      { mode: 0o600 },
    );
    const ok = await broken.run(['findings', 'list', '--query', 'severity:high', '--json']);
    expect(ok.code).toBe(0);
    // the multipart upload is sent again (a fresh file stream) after the refresh
    const again = JSON.parse(readFileSync(broken.credentials, 'utf8'));
    writeFileSync(
      broken.credentials,
      JSON.stringify({ findings: { ...again.findings, access_token: 'expired.jwt.token' } }),
      { mode: 0o600 },
    );
    const up = await broken.run(['upload', lowOnlySarif(), '--product', product.id, '--wait']);
    expect(describeRun(up)).toMatch(/^exit 0/);
    expect(up.stdout).toContain('ingested: 1 results');
    const after = JSON.parse(readFileSync(broken.credentials, 'utf8'));
    expect(after.findings.access_token).not.toBe('expired.jwt.token');
    expect(statSync(broken.credentials).mode & 0o777).toBe(0o600);
    broken.remove();
  });

  it('a server that is down is exit 4', async () => {
    const down = cliHome({
      PLATFORM_FINDINGS_URL: 'http://127.0.0.1:9',
      PLATFORM_FINDINGS_API_KEY: 'sa_00000000_x',
    });
    for (const args of [
      ['findings', 'list'],
      ['findings', 'get', '00000000-0000-4000-8000-000000000000'],
      ['suppress', 'list', '--project', '00000000-0000-4000-8000-000000000000'],
    ]) {
      const r = await down.run(args);
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 4]);
      expect(r.stderr).toContain('cannot reach the findings service');
      noStack(r.stderr);
    }
    down.remove();
  });
});
