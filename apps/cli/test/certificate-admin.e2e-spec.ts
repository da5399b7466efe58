import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  CERT_ADMIN_EMAIL as ADMIN_EMAIL,
  CERT_ADMIN_PASSWORD as ADMIN_PASSWORD,
  createUser,
  enrollDevice,
  IssuerRegistry,
  loginAdmin,
  startEnrollApp,
  type CertTestApp as TestApp,
  Vendor,
} from './support/services';
import { cliHome, describeRun, type CliHome } from './support/run-cli';

type CertificateIssuer = NonNullable<Parameters<IssuerRegistry['use']>[1]>;

// devices get/unblock/revoke, certificates revoke, license status and audit export against the
// real certificate service on a loopback port (PostgreSQL, Redis, its built-in CA).
let t: TestApp;
let url: string;
let home: CliHome;
const vendor = new Vendor();
const snapshots = mkdtempSync(join(tmpdir(), 'cli-log-snapshots-'));

beforeAll(async () => {
  t = await startEnrollApp({
    env: {
      CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: vendor.publicKey,
      CERTSVC_LOG_SNAPSHOT_DIR: join(snapshots, 'store'),
    },
  });
  await t.app.listen(0, '127.0.0.1');
  url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  home = cliHome();
  const login = await home.run(['login', 'certificates', '--url', url, '--email', ADMIN_EMAIL], {
    env: { PLATFORM_PASSWORD: ADMIN_PASSWORD },
  });
  if (login.code !== 0) throw new Error(`login failed: ${describeRun(login)}`);
}, 60_000);

afterAll(async () => {
  home?.remove();
  await t?.close();
  vendor.dispose();
  rmSync(snapshots, { recursive: true, force: true });
});

/** An enrolled device whose wifi request the CLI approved: its serial and certificate serial. */
async function issued(): Promise<{
  serial: string;
  certificate: string;
  device: Awaited<ReturnType<typeof enrollDevice>>;
}> {
  const device = await enrollDevice(t);
  const approve = await home.run(['requests', 'approve', device.requestId, '--json']);
  expect(describeRun(approve)).toMatch(/^exit 0/);
  const row = (JSON.parse(approve.stdout) as { results: { serial: string }[] }).results[0];
  return { serial: device.serial, certificate: row.serial, device };
}

async function runJson(args: string[]): Promise<Record<string, unknown>> {
  const r = await home.run([...args, '--json']);
  expect(describeRun(r)).toMatch(/^exit 0/);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

it('devices get shows one device exactly; an unknown serial is exit 5', async () => {
  const { serial } = await issued();
  expect(await runJson(['devices', 'get', serial])).toMatchObject({ serial, blocked: false });
  const table = await home.run(['devices', 'get', serial]);
  expect(table.stdout).toMatch(new RegExp(`^serial\\s+${serial}$`, 'm'));
  expect(table.stdout).toMatch(/^blocked\s+no$/m);
  const missing = await home.run(['devices', 'get', `${serial}-NOPE`]);
  expect(missing.code).toBe(5);
  expect(missing.stderr).toContain(`no device with serial ${serial}-NOPE`);
  expect((await home.run(['devices', 'get', 'a/b'])).code).toBe(2);
});

it('certificates revoke revokes with the reason; an unknown serial is exit 5', async () => {
  const { certificate } = await issued();
  const r = await home.run(['certificates', 'revoke', certificate, '--reason', 'keyCompromise']);
  expect(describeRun(r)).toMatch(/^exit 0/);
  expect(r.stdout).toMatch(new RegExp(`${certificate}\\s+wifi\\s+revoked\\s+keyCompromise`));
  // already revoked: the row as it is (the first reason kept)
  const again = await runJson(['certificates', 'revoke', certificate, '--reason', 'superseded']);
  expect(again).toMatchObject({ status: 'revoked', revocation_reason: 'keyCompromise' });
  const unknown = await home.run(['certificates', 'revoke', 'abcdef0123456789']);
  expect(unknown.code).toBe(5);
  expect(unknown.stderr).toContain('404 certificate_not_found');
  expect(unknown.stderr).not.toMatch(/\n\s+at /);
  expect((await home.run(['certificates', 'revoke', certificate, '--reason', 'x'])).code).toBe(2);
  expect((await home.run(['certificates', 'revoke', 'not-hex'])).code).toBe(2);
});

it('devices revoke revokes and blocks; devices unblock lifts the block', async () => {
  const { serial, certificate } = await issued();
  const r = await home.run(['devices', 'revoke', serial]);
  expect(describeRun(r)).toMatch(/^exit 0/);
  expect(r.stdout).toMatch(new RegExp(`${certificate}\\s+revoked`));
  expect(r.stderr).toContain(`${serial}: revoked; blocked: yes`);
  expect(await runJson(['devices', 'get', serial])).toMatchObject({ blocked: true });
  const unblock = await home.run(['devices', 'unblock', serial]);
  expect(describeRun(unblock)).toMatch(/^exit 0/);
  expect(unblock.stdout).toContain(`${serial}: not blocked`);
  expect(await runJson(['devices', 'get', serial])).toMatchObject({ blocked: false });
});

it('a partial device revocation (207) prints the failed row and exits 6; a repeat completes', async () => {
  const { serial, certificate } = await issued();
  const registry = t.app.get(IssuerRegistry);
  const inner = registry.builtIn();
  const failing: CertificateIssuer = {
    kind: inner.kind,
    capabilities: () => inner.capabilities(),
    issue: (req) => inner.issue(req),
    issueMany: (req) => inner.issueMany(req),
    revoke: () => Promise.reject(new Error('CA unreachable')),
  };
  registry.use('wifi', failing);
  try {
    const partial = await home.run(['devices', 'revoke', serial]);
    expect(partial.code).toBe(6);
    expect(partial.stdout).toMatch(new RegExp(`${certificate}\\s+error\\s+issuer_revoke_failed`));
    expect(partial.stderr).toContain('not fully revoked (partial): 1 of 1 certificates failed');
    const json = await home.run(['devices', 'revoke', serial, '--json']);
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'partial', blocked: false });
  } finally {
    registry.use('wifi', undefined);
  }
  const repeat = await home.run(['devices', 'revoke', serial]);
  expect(describeRun(repeat)).toMatch(/^exit 0/);
  expect(repeat.stdout).toMatch(new RegExp(`${certificate}\\s+revoked`));
});

it('license status shows the mode and the seats', async () => {
  const s = await runJson(['license', 'status']);
  expect(s).toMatchObject({ mode: expect.any(String), max_devices: expect.any(Number) });
  const table = await home.run(['license', 'status']);
  expect(describeRun(table)).toMatch(/^exit 0/);
  expect(table.stdout).toMatch(new RegExp(`^licence: ${s.mode as string} `, 'm'));
  expect(table.stdout).toMatch(/^devices: \d+ of \d+/m);
});

it('audit export streams the CSV to a file or stdout, with --since/--until', async () => {
  const { serial } = await issued();
  await home.run(['devices', 'revoke', serial]);
  const file = join(home.dir, 'audit.csv');
  const r = await home.run(['audit', 'export', '--since', '2000-01-01', '--output', file]);
  expect(describeRun(r)).toMatch(/^exit 0/);
  const csv = readFileSync(file, 'utf8');
  expect(csv.split('\n')[0]).toMatch(/action/);
  expect(csv).toMatch(new RegExp(`device\\.revoke.*${serial}|${serial}.*device\\.revoke`));
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(existsSync(`${file}.partial`)).toBe(false);

  const stdout = await home.run(['audit', 'export']);
  expect(describeRun(stdout)).toMatch(/^exit 0/);
  expect(stdout.stdout).toContain(serial);
  const old = await home.run(['audit', 'export', '--until', '2000-01-01T00:00:00Z']);
  expect(describeRun(old)).toMatch(/^exit 0/);
  expect(old.stdout).not.toContain(serial);

  const bad = await home.run(['audit', 'export', '--since', 'yesterday']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--since: not an ISO 8601 date');
  const dir = await home.run(['audit', 'export', '--output', join(home.dir, 'no', 'x.csv')]);
  expect(dir.code).toBe(2);
});

it('a cert-viewer may not revoke (3); nothing changed', async () => {
  const { serial } = await issued();
  const admin = await loginAdmin(t);
  const viewer = await createUser(t, admin, ['cert-viewer']);
  const viewerHome = cliHome();
  try {
    await viewerHome.run(['login', 'certificates', '--url', url, '--email', viewer.email], {
      env: { PLATFORM_PASSWORD: viewer.password },
    });
    const denied = await viewerHome.run(['devices', 'revoke', serial]);
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain('not allowed');
  } finally {
    viewerHome.remove();
  }
  expect(await runJson(['devices', 'get', serial])).toMatchObject({ blocked: false });
});

it('license activate: a signed .lic file for this deployment is in force; bad files are exit 2, a refused licence 5', async () => {
  const before = await runJson(['license', 'status']);
  const instanceKey = before.deployment_instance_key as string;
  const lic = join(home.dir, 'example.lic');
  const file = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
  writeFileSync(
    lic,
    `${file(vendor.sign({ instanceKey, issuedTo: 'CLI Ltd', maxDevices: 321, seats: { wifi: 7 } }))}\n`,
  );
  const r = await home.run(['license', 'activate', lic]);
  expect(describeRun(r)).toMatch(/^exit 0/);
  expect(r.stdout).toMatch(/^licence: licensed \(paid\), issued to CLI Ltd/m);
  expect(r.stdout).toMatch(/^wifi\s+7\s+/m);
  expect(await runJson(['license', 'status'])).toMatchObject({
    mode: 'licensed',
    max_devices: 321,
  });

  const missing = await home.run(['license', 'activate', join(home.dir, 'nope.lic')]);
  expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('no such file')]);
  const notLicence = join(home.dir, 'report.sarif');
  writeFileSync(notLicence, '{"version":"2.1.0"}');
  const wrong = await home.run(['license', 'activate', notLicence]);
  expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringContaining('is not a licence file')]);
  // Signed for another deployment: the service refuses it, the licence in force stays.
  const other = new Vendor();
  try {
    const foreign = join(home.dir, 'foreign.lic');
    writeFileSync(foreign, file(other.sign({ instanceKey, maxDevices: 5 })));
    const refused = await home.run(['license', 'activate', foreign]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/^platform: certificate service answered 400 license_invalid/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  } finally {
    other.dispose();
  }
  expect(await runJson(['license', 'status'])).toMatchObject({ max_devices: 321 });
});

it('devices request-logs: the agent is asked at check-in, its snapshot is listed and downloaded 0600', async () => {
  const { serial, device } = await issued();
  const checkin = async () => {
    const res = await fetch(`${url}/api/v1/requests/${device.requestId}/checkin`, {
      method: 'POST',
      headers: { 'x-agent-secret': device.agentSecret, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { upload_logs: boolean }).upload_logs;
  };
  expect(await checkin()).toBe(false);
  const asked = await home.run(['devices', 'request-logs', serial]);
  expect(describeRun(asked)).toMatch(/^exit 0/);
  expect(asked.stdout).toContain(`${serial}: logs requested at`);
  expect(await checkin()).toBe(true);

  // The agent uploads (as apps/device-agent does when upload_logs is true).
  const text = '{"level":"info","msg":"agent started"}\n';
  const up = await fetch(`${url}/api/v1/requests/${device.requestId}/logs`, {
    method: 'POST',
    headers: { 'x-agent-secret': device.agentSecret, 'content-type': 'application/gzip' },
    body: gzipSync(Buffer.from(text)),
  });
  expect(up.status).toBe(201);
  expect(await checkin()).toBe(false);

  const list = await home.run(['devices', 'logs', serial, '--json']);
  expect(describeRun(list)).toMatch(/^exit 0/);
  const [snapshot] = (JSON.parse(list.stdout) as { items: { id: string; size_bytes: number }[] })
    .items;
  const table = await home.run(['devices', 'logs', serial]);
  expect(table.stdout).toMatch(
    new RegExp(`^${snapshot.id}\\s+\\S+ \\S+\\s+${snapshot.size_bytes}\\s`, 'm'),
  );

  const out = join(home.dir, 'agent-logs.gz');
  const got = await home.run(['devices', 'download-logs', serial, snapshot.id, '--output', out]);
  expect(describeRun(got)).toMatch(/^exit 0/);
  expect(gunzipSync(readFileSync(out)).toString()).toBe(text);
  expect(statSync(out).mode & 0o777).toBe(0o600);

  // Nothing pending any more: withdrawing is refused; unknown snapshot and bad input.
  const cancel = await home.run(['devices', 'request-logs', serial, '--cancel']);
  expect([cancel.code, cancel.stderr]).toEqual([
    5,
    expect.stringContaining('log_request_not_found'),
  ]);
  const unknown = await home.run([
    'devices',
    'download-logs',
    serial,
    '00000000-0000-4000-8000-000000000000',
    '-o',
    join(home.dir, 'x.gz'),
  ]);
  expect(unknown.code).toBe(5);
  expect(existsSync(join(home.dir, 'x.gz'))).toBe(false);
  expect((await home.run(['devices', 'download-logs', serial, 'not-a-uuid'])).code).toBe(2);
  expect((await home.run(['devices', 'request-logs', 'NO-SUCH-SERIAL'])).code).toBe(5);
});
