import { readFileSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import {
  CERT_ADMIN_EMAIL as ADMIN_EMAIL,
  CERT_ADMIN_PASSWORD as ADMIN_PASSWORD,
  createUser,
  enrollDevice,
  loginAdmin,
  startEnrollApp,
  type CertTestApp as TestApp,
} from './support/services';
import { cliHome, describeRun, type CliHome } from './support/run-cli';

// An administrator approves an agent's request with the CLI: the real certificate service on a
// loopback port (PostgreSQL, Redis, its CA), devices enrolled through POST /enroll.
let t: TestApp;
let url: string;
let home: CliHome;

beforeAll(async () => {
  t = await startEnrollApp();
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
});

async function statusOf(requestId: string): Promise<string> {
  const admin = await loginAdmin(t);
  const list = await t.http
    .get('/api/v1/requests?limit=500')
    .set('Authorization', `Bearer ${admin.accessToken}`)
    .expect(200);
  return (list.body as { items: { id: string; status: string }[] }).items.find(
    (r) => r.id === requestId,
  )!.status;
}

it('stores the session 0600', () => {
  expect(statSync(home.credentials).mode & 0o777).toBe(0o600);
});

it('an expired access token is refreshed with the stored rt_ token and stored again', async () => {
  const stored = JSON.parse(readFileSync(home.credentials, 'utf8'));
  const session = { ...stored.certificates, access_token: 'expired.jwt.token' };
  writeFileSync(home.credentials, JSON.stringify({ ...stored, certificates: session }), {
    mode: 0o600,
  });
  const r = await home.run(['devices', 'list', '--json']);
  expect(describeRun(r)).toMatch(/^exit 0/);
  const after = JSON.parse(readFileSync(home.credentials, 'utf8'));
  expect(after.certificates.access_token).not.toBe('expired.jwt.token');
  expect(after.certificates.refresh_token).not.toBe(session.refresh_token);
  expect(statSync(home.credentials).mode & 0o777).toBe(0o600);
});

it('requests list shows a pending request; requests approve issues its certificate', async () => {
  const device = await enrollDevice(t);
  const list = await home.run([
    'requests',
    'list',
    '--status',
    'pending',
    '--serial',
    device.serial,
    '--json',
  ]);
  expect(describeRun(list)).toMatch(/^exit 0/);
  const page = JSON.parse(list.stdout) as { items: { id: string; status: string }[] };
  expect(page.items).toEqual([
    expect.objectContaining({ id: device.requestId, status: 'pending' }),
  ]);
  const table = await home.run(['requests', 'list', '--serial', device.serial]);
  expect(table.stdout).toMatch(
    new RegExp(`${device.requestId}\\s+${device.serial}\\s+wifi\\s+pending`),
  );

  const approve = await home.run(['requests', 'approve', device.requestId]);
  expect(describeRun(approve)).toMatch(/^exit 0/);
  expect(approve.stdout).toMatch(new RegExp(`${device.requestId}\\s+issued\\s+[0-9a-f]{32}`));
  expect(await statusOf(device.requestId)).toBe('issued');

  const devices = await home.run(['devices', 'list', '--serial', device.serial, '--json']);
  expect(describeRun(devices)).toMatch(/^exit 0/);
  expect(
    (JSON.parse(devices.stdout) as { items: { serial: string }[] }).items.map((d) => d.serial),
  ).toEqual([device.serial]);
});

it('requests reject rejects; approving it again is a failed row (exit 6)', async () => {
  const device = await enrollDevice(t);
  const reject = await home.run([
    'requests',
    'reject',
    device.requestId,
    '--reason',
    'unknown laptop',
  ]);
  expect(describeRun(reject)).toMatch(/^exit 0/);
  expect(await statusOf(device.requestId)).toBe('rejected');
  const again = await home.run(['requests', 'approve', device.requestId]);
  expect(again.code).toBe(6);
  expect(again.stdout).toContain('request_not_pending');
  expect(again.stderr).toContain('1 of 1 requests failed');
});

it('bad input and missing rights: clear messages, exit codes 2 and 3, no stack trace', async () => {
  const bad = await home.run(['requests', 'approve', 'not-a-uuid']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('not a request id: not-a-uuid');
  expect((await home.run(['requests', 'list', '--status', 'bogus'])).code).toBe(2);
  expect((await home.run(['requests', 'approve'])).code).toBe(2);

  const admin = await loginAdmin(t);
  const viewer = await createUser(t, admin, ['cert-viewer']);
  const viewerHome = cliHome();
  await viewerHome.run(['login', 'certificates', '--url', url, '--email', viewer.email], {
    env: { PLATFORM_PASSWORD: viewer.password },
  });
  const device = await enrollDevice(t);
  const denied = await viewerHome.run(['requests', 'approve', device.requestId]);
  viewerHome.remove();
  expect(denied.code).toBe(3);
  expect(denied.stderr).toContain('not allowed');
  expect(denied.stderr).not.toMatch(/\n\s+at /);
  expect(await statusOf(device.requestId)).toBe('pending');
});
