import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  admin,
  expect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
  type Api,
} from './support/fixtures';

/** A fresh ed25519 key made by ssh-keygen (a real peer): its authorized_keys line. */
function sshPublicKey(comment: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'certificate-web-ssh-'));
  try {
    const file = join(dir, 'id');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file]);
    return readFileSync(`${file}.pub`, 'utf8').trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The status of a call made with `as`'s token (refusals are the point). */
async function statusOf(as: Api, method: string, path: string, data?: unknown): Promise<number> {
  const res = await as.request.fetch(`${webUrl()}${path}`, {
    method,
    headers: as.headers(),
    ...(data === undefined ? {} : { data }),
  });
  return res.status();
}

test('SSH: the CA key, a registered key approved then revoked from the registry, a shared account, and a key-holder token shown once', async ({
  page,
  api,
}) => {
  const device = await api.enroll(unique('SSH'));
  const registered = await api.send<{ id: string; fingerprint: string; state: string }>(
    'POST',
    '/api/v1/enroll/ssh-key',
    {
      serial: device.serial,
      enrollment_token: device.enrollmentToken,
      public_key: sshPublicKey('ann@laptop'),
    },
  );
  expect(registered.state).toBe('pending');
  const ca = await api.send<{ public_key: string }>('GET', '/api/v1/ssh/ca-public-key');

  await signIn(page, admin.email(), admin.password());
  await page.getByRole('link', { name: 'SSH', exact: true }).click();
  await expect(page.getByTestId('ssh-ca-key')).toHaveText(ca.public_key);
  await expect(page.getByTestId('token-gate')).toContainText('Key-holder server token');

  // The registry filtered to this device: approve, then revoke with a reason.
  await page.getByRole('textbox', { name: 'Device serial' }).fill(device.serial);
  await page.getByRole('button', { name: 'Apply' }).click();
  const row = page.getByTestId('ssh-key-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('ssh-key-state')).toHaveText('pending');
  await row.getByRole('button', { name: `Approve the key ${registered.fingerprint}` }).click();
  await expect(row.getByTestId('ssh-key-state')).toHaveText('active');
  await expectAccessible(page, 'ssh');
  await row.getByRole('button', { name: `Revoke the key ${registered.fingerprint}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Reason (optional)' }).fill('laptop lost');
  await expect(dialog).toHaveCSS('opacity', '1');
  await expectAccessible(page, 'ssh revoke dialog');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(row.getByTestId('ssh-key-state')).toHaveText('revoked');
  const keys = await api.send<{ items: { id: string; state: string; revoked_by: string }[] }>(
    'GET',
    `/api/v1/admin/ssh-keys?serial=${encodeURIComponent(device.serial)}`,
  );
  expect(keys.items.map((k) => [k.id, k.state])).toEqual([[registered.id, 'revoked']]);

  // A shared account with one member, then deleted.
  const alias = `svc_${unique('a')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`;
  await page.getByRole('textbox', { name: 'Login name' }).fill(alias);
  await page.getByRole('textbox', { name: 'Members' }).fill('ann@certificate-web.test');
  await page.getByRole('button', { name: 'Create shared account' }).click();
  const aliasRow = page.getByTestId('alias-row').filter({ hasText: alias });
  await expect(aliasRow).toContainText('ann@certificate-web.test');
  // A name the service refuses: its error envelope is shown.
  await page.getByRole('textbox', { name: 'Login name' }).fill('Not A Login');
  await page.getByRole('button', { name: 'Create shared account' }).click();
  await expect(page.getByTestId('api-error')).toBeVisible();
  await aliasRow.getByRole('button', { name: `Delete the shared account ${alias}` }).click();
  await expect(aliasRow).toHaveCount(0);

  // A key-holder token: its value shown once, never listed, gone after "stored".
  const server = unique('bastion').toLowerCase();
  await page.getByRole('textbox', { name: 'Server name' }).fill(server);
  await page.getByRole('textbox', { name: 'Logins' }).fill('deploy, ops');
  await page.getByRole('button', { name: 'Create token' }).click();
  const secret = page.getByTestId('one-time-secret');
  await expect(secret).toContainText(server);
  const token = ((await secret.getByTestId('secret-value').textContent()) ?? '').trim();
  expect(token.length).toBeGreaterThan(20);
  const tokenRow = page.getByTestId('token-row').filter({ hasText: server });
  await expect(tokenRow).toContainText('deploy, ops');
  await expect(tokenRow.getByTestId('token-state')).toHaveText('active');
  await expectAccessible(page, 'ssh token once');
  await screenshot(page, 'ssh');
  const listed = await api.send<{ items: { name: string; token_prefix: string }[] }>(
    'GET',
    '/api/v1/admin/keyholder-tokens',
  );
  const entry = listed.items.find((k) => k.name === server);
  expect(token.startsWith(entry?.token_prefix ?? '-')).toBe(true);
  expect(JSON.stringify(listed)).not.toContain(token);
  await secret.getByRole('button', { name: 'I have stored it' }).click();
  await expect(secret).toHaveCount(0);
  await page.reload();
  await expect(tokenRow).toBeVisible();
  expect(await page.content()).not.toContain(token);
  await tokenRow.getByRole('button', { name: `Revoke the token ${server}` }).click();
  await expect(tokenRow.getByTestId('token-state')).toContainText('revoked');
});

test('an approver sees SSH and networks without admin parts and no Kubernetes; a viewer sees no webhooks or issuer profiles; the API refuses both', async ({
  page,
  api,
}) => {
  const network = await api.send<{ id: string; name: string }>('POST', '/api/v1/admin/networks', {
    kind: 'wired',
    name: unique('wired-approver'),
  });
  const approverEmail = `${unique('approver').toLowerCase()}@certificate-web.test`;
  const approverPassword = await api.person(approverEmail, ['cert-approver']);
  await signIn(page, approverEmail, approverPassword);
  const nav = page.getByRole('navigation');
  await expect(nav.getByRole('link', { name: 'SSH', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Networks' })).toBeVisible();
  for (const hidden of ['Kubernetes', 'Webhooks', 'Issuer profiles']) {
    await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
  }
  await nav.getByRole('link', { name: 'SSH', exact: true }).click();
  await expect(page.getByTestId('ssh-ca-key')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'SSH key registry' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create token' })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Networks' }).click();
  const row = page.getByTestId('network-row').filter({ hasText: network.name });
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Add network' })).toHaveCount(0);
  await expect(row.getByRole('button')).toHaveCount(0);
  // The list as CSV, readable by the approver too.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  let csv = '';
  for await (const chunk of await (await download).createReadStream()) csv += String(chunk);
  expect(csv).toContain(network.name);
  await expectAccessible(page, 'networks as approver');
  await screenshot(page, 'networks-approver');

  const approver = await api.as(approverEmail, approverPassword);
  expect(await statusOf(approver, 'GET', '/api/v1/admin/networks')).toBe(200);
  expect(await statusOf(approver, 'DELETE', `/api/v1/admin/networks/${network.id}`)).toBe(403);
  expect(
    await statusOf(approver, 'POST', '/api/v1/admin/networks', { kind: 'wired', name: 'x' }),
  ).toBe(403);
  expect(await statusOf(approver, 'GET', '/api/v1/admin/ssh-keys')).toBe(403);
  expect(await statusOf(approver, 'POST', '/api/v1/admin/keyholder-tokens', { name: 'x' })).toBe(
    403,
  );
  expect(await statusOf(approver, 'POST', '/api/v1/admin/principal-aliases', { name: 'x' })).toBe(
    403,
  );
  expect(await statusOf(approver, 'GET', '/api/v1/admin/k8s-clusters')).toBe(403);
  expect(
    await statusOf(approver, 'POST', '/api/v1/admin/k8s-clusters', {
      name: 'x',
      server_url: 'https://k8s.example.com',
      ca_bundle: 'x',
    }),
  ).toBe(403);
  // The network is still there.
  const networks = await api.send<{ items: { id: string }[] }>('GET', '/api/v1/admin/networks');
  expect(networks.items.map((n) => n.id)).toContain(network.id);

  // A viewer: no webhooks or issuer profiles in the navigation, and the API refuses them.
  const viewerEmail = `${unique('viewer').toLowerCase()}@certificate-web.test`;
  const viewerPassword = await api.person(viewerEmail, ['cert-viewer']);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, viewerEmail, viewerPassword);
  await expect(nav.getByRole('link', { name: 'Networks' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Webhooks' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Issuer profiles' })).toHaveCount(0);
  const viewer = await api.as(viewerEmail, viewerPassword);
  expect(await statusOf(viewer, 'GET', '/api/v1/admin/webhooks')).toBe(403);
  expect(
    await statusOf(viewer, 'POST', '/api/v1/admin/webhooks', { url: 'https://x.example' }),
  ).toBe(403);
  expect(await statusOf(viewer, 'GET', '/api/v1/settings/issuers')).toBe(403);
  expect(await statusOf(viewer, 'POST', '/api/v1/settings/issuers/wifi/test-connection')).toBe(403);
  await api.request.fetch(`${webUrl()}/api/v1/admin/networks/${network.id}`, {
    method: 'DELETE',
    headers: api.headers(),
  });
});
