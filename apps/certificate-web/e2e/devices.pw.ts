import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { stackVar } from '@platform/web-ui/e2e';
import {
  admin,
  expect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
  Api,
} from './support/fixtures';
import { restoreLicense, saveLicense, type SavedLicense } from './support/license-state';

/** A device with two active Wi-Fi certificates (the first one superseded by a renewal). */
async function deviceWithTwoCertificates(api: Api) {
  const device = await api.enroll(unique('DEV'));
  const first = await approve(api, device.requestId);
  const renewal = await api.enroll(device.serial, device.enrollmentToken);
  const second = await approve(api, renewal.requestId);
  return { ...device, certificates: [first, second] as const };
}

async function approve(api: Api, requestId: string): Promise<string> {
  const answer = await api.send<{ results: { status: string; serial?: string }[] }>(
    'POST',
    '/api/v1/requests/approve',
    { request_ids: [requestId] },
  );
  expect(answer.results[0]?.status).toBe('issued');
  return answer.results[0]?.serial ?? '';
}

/** Sets a certificate's purpose in the database (see the revoke scenario). */
async function setPurpose(serial: string, purpose: string): Promise<void> {
  const client = new Client({ connectionString: stackVar('CERT_DATABASE_URL') });
  await client.connect();
  try {
    const edited = await client.query('UPDATE certificates SET purpose = $2 WHERE serial = $1', [
      serial,
      purpose,
    ]);
    expect(edited.rowCount).toBe(1);
  } finally {
    await client.end();
  }
}

async function openCard(page: Page, serial: string): Promise<void> {
  await page.goto(`${webUrl()}/devices/${encodeURIComponent(serial)}`);
  await expect(page.getByTestId('block-state')).toBeVisible();
}

function revokeRow(page: Page, serial: string) {
  return page.locator(`[data-testid="revoke-row"][data-serial="${serial}"]`);
}

test.describe('devices and the device card', () => {
  let saved: SavedLicense;
  test.beforeAll(async ({ request }) => {
    // This file changes the license (room for its devices, seats): put back in afterAll.
    saved = await saveLicense();
    const api = await new Api(request).as(admin.email(), admin.password());
    const status = await api.send<{ active_count: number; max_devices: number }>(
      'GET',
      '/api/v1/license/status',
    );
    if (status.max_devices - status.active_count < 10)
      await api.license(status.active_count + 1000);
  });
  test.afterAll(async ({ request }) => {
    await restoreLicense(await new Api(request).as(admin.email(), admin.password()), saved);
  });

  test('an admin revokes a device and sees the partial result when one certificate fails, then completes it and unblocks', async ({
    page,
    api,
  }) => {
    const device = await deviceWithTwoCertificates(api);
    const [first, second] = device.certificates;
    // The renewal becomes a row the service cannot revoke: a certificate record of a
    // Kubernetes credential (never revoked by the service: its revoke answers
    // purpose_unsupported), the real per-certificate failure path of the full revoke.
    await setPurpose(second, 'k8s');

    await signIn(page, admin.email(), admin.password());
    // The list, filtered by the serial in the URL, opens the card.
    await page.goto(`${webUrl()}/devices?serial=${device.serial}`);
    await expect(page.getByTestId('devices-total')).toHaveText('1 of 1 devices');
    await page.getByRole('link', { name: device.serial }).click();
    await expect(page.getByTestId('block-state')).toHaveText('not blocked');
    await screenshot(page, 'device-card');

    const revokeSection = page.getByTestId('device-revoke');
    await revokeSection.getByRole('button', { name: 'Revoke device' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(
      `Revoke every active certificate and SSH key of ${device.serial}?`,
    );
    await screenshot(page, 'device-revoke-confirmation');
    await dialog.getByRole('button', { name: 'Revoke device' }).click();

    const result = page.getByTestId('revoke-result');
    await expect(result).toHaveAttribute('data-http', '207');
    await expect(result).toHaveAttribute('data-status', 'partial');
    await expect(result).toContainText('the device is NOT blocked');
    await expect(revokeRow(page, first)).toHaveAttribute('data-status', 'revoked');
    await expect(revokeRow(page, second)).toHaveAttribute('data-status', 'error');
    await expect(revokeRow(page, second)).toContainText(
      'not revoked: this service does not revoke certificates of this kind (purpose_unsupported)',
    );
    await expect(page.getByTestId('block-state')).toHaveText('not blocked');
    // The card's certificate list shows the outcome too.
    const certRow = (serial: string) =>
      page.getByTestId('certificate-row').filter({ hasText: serial });
    await expect(certRow(first).getByTestId('certificate-status')).toHaveText('revoked');
    await expect(certRow(second).getByTestId('certificate-status')).toHaveText('active');
    // The admin's whole card (purposes, keys, lists, logs, directives) with the result.
    await expectAccessible(page, 'device partial revoke');
    await screenshot(page, 'device-revoke-partial');

    // The cause fixed, the repeat revokes the rest and blocks the device.
    await setPurpose(second, 'wifi');
    await revokeSection.getByRole('button', { name: 'Revoke device' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke device' }).click();
    await expect(result).toHaveAttribute('data-http', '200');
    await expect(result).toContainText('All certificates revoked; the device is blocked.');
    await expect(revokeRow(page, second)).toHaveAttribute('data-status', 'revoked');
    await expect(revokeRow(page, first)).toHaveCount(0);
    await expect(page.getByTestId('block-state')).toContainText('blocked since');

    // A request made during the block carries the permanent flag on the card.
    const during = await api.enroll(device.serial, device.enrollmentToken);
    await page.reload();
    const flagged = page.locator(
      `[data-testid="device-request"][data-request-id="${during.requestId}"]`,
    );
    await expect(flagged).toContainText('registered during block');
    await screenshot(page, 'device-blocked');
    // The list marks it blocked (axe on the list; the card's state was checked above).
    await page.goto(`${webUrl()}/devices?serial=${device.serial}&blocked=true`);
    await expect(page.getByTestId('device-row')).toContainText('blocked');
    await expectAccessible(page, 'device list');
    // Export CSV of the filtered view: this one device, blocked.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const lines = readFileSync(await csv.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(device.serial);
    expect(lines[1]).toContain('true');
    await screenshot(page, 'devices-list');
    await page.getByRole('link', { name: device.serial }).click();

    await revokeSection.getByRole('button', { name: 'Unblock' }).click();
    await expect(page.getByTestId('block-state')).toHaveText('not blocked');
    await expect(revokeSection.getByRole('button', { name: 'Unblock' })).toHaveCount(0);
    await expect(flagged).toContainText('registered during block');
    const listed = await api.send<{ items: { blocked: boolean }[] }>(
      'GET',
      `/api/v1/devices?serial=${device.serial}`,
    );
    expect(listed.items[0]?.blocked).toBe(false);
  });

  test('the admin rotates the enrollment token (shown once), changes overrides and owner, asks for logs and addresses a purpose', async ({
    page,
    api,
  }) => {
    const device = await api.enroll(unique('ROT'));
    await signIn(page, admin.email(), admin.password());
    await openCard(page, device.serial);

    await page.getByRole('button', { name: 'Rotate enrollment token' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    const secret = page.getByTestId('one-time-secret');
    await expect(secret).toBeVisible();
    const token = (await secret.getByTestId('secret-value').textContent())?.trim() ?? '';
    expect(token.length).toBeGreaterThan(20);
    expect(token).not.toBe(device.enrollmentToken);
    await expectAccessible(page, 'device token shown once');
    await screenshot(page, 'device-token-once');
    // The new token is the device's now: the old one is refused (401), the new one works.
    const purposesWith = (enrollmentToken: string) =>
      api.request.post(`${webUrl()}/api/v1/enroll/purposes`, {
        data: { serial: device.serial, enrollment_token: enrollmentToken },
      });
    expect((await purposesWith(device.enrollmentToken)).status()).toBe(401);
    expect((await purposesWith(token)).status()).toBe(200);
    // Gone after a reload: nothing keeps it.
    await page.reload();
    await expect(page.getByTestId('block-state')).toBeVisible();
    await expect(page.getByTestId('one-time-secret')).toHaveCount(0);
    await expect(page.getByText(token)).toHaveCount(0);
    await expect(page.getByTestId('device-keys')).toContainText('last rotated');

    // Overrides and owner.
    await page.getByRole('combobox', { name: 'Override for VPN' }).click();
    await page.getByRole('option', { name: 'allow' }).click();
    await page.getByRole('combobox', { name: 'Override for SSH' }).click();
    await page.getByRole('option', { name: 'deny' }).click();
    await page.getByRole('button', { name: 'Save overrides' }).click();
    await expect(page.getByTestId('device-purposes').getByText('Saved.')).toBeVisible();
    await page.getByLabel('Owner (e-mail; empty removes it)').fill('carol@certificate-web.test');
    await page.getByRole('button', { name: 'Save owner' }).click();
    await expect
      .poll(async () => {
        const list = await api.send<{
          items: { owner: string | null; purpose_overrides: Record<string, string> }[];
        }>('GET', `/api/v1/devices?serial=${device.serial}`);
        return list.items[0];
      })
      .toMatchObject({
        owner: 'carol@certificate-web.test',
        purpose_overrides: { vpn: 'allow', ssh: 'deny' },
      });
    await expect(
      page.locator('[data-testid="purpose-row"][data-purpose="vpn"]').getByRole('cell').nth(3),
    ).toHaveText('Yes');

    // Log snapshot requested; a directive addressed to a person.
    await page.getByRole('button', { name: 'Request a snapshot' }).click();
    await expect(page.getByTestId('logs-requested')).toContainText('the agent uploads');
    const directives = page.getByTestId('device-directives');
    await directives.getByLabel('Person (e-mail)').fill('dave@certificate-web.test');
    await directives.getByRole('button', { name: 'Address the purpose' }).click();
    await expect(directives.getByTestId('directive-row')).toContainText(
      'dave@certificate-web.test',
    );
    await expect(directives.getByTestId('directive-row')).toContainText('pending');
    // (axe checked the admin's card in the token state above and in the revoke scenario)
    await screenshot(page, 'device-card-admin');
  });

  test('the card warns of purposes without a free license seat, and an assignment the seats refuse shows the code', async ({
    page,
    api,
  }) => {
    const device = await api.enroll(unique('SEAT'));
    const status = await api.send<{
      active_count: number;
      purpose_seats: { purpose: string; used: number }[];
    }>('GET', '/api/v1/license/status');
    const wifiUsed = status.purpose_seats.find((s) => s.purpose === 'wifi')?.used ?? 0;
    // Seats for Wi-Fi only: every other purpose has none left.
    await api.license(status.active_count + 1000, { wifi: wifiUsed + 100 });
    await signIn(page, admin.email(), admin.password());
    await openCard(page, device.serial);
    const row = (purpose: string) =>
      page.locator(`[data-testid="purpose-row"][data-purpose="${purpose}"]`);
    await expect(row('wifi')).toContainText(`${wifiUsed} of ${wifiUsed + 100} used`);
    await expect(row('wifi').getByTestId('seat-warning')).toHaveCount(0);
    await expect(row('vpn').getByTestId('seat-warning')).toHaveText(
      'no seat left: a new certificate for this purpose may be refused',
    );
    await row('vpn').getByRole('checkbox', { name: 'Assigned: VPN' }).check();
    await page.getByRole('button', { name: 'Save overrides' }).click();
    await expect(page.getByTestId('device-purposes').getByTestId('api-error')).toContainText(
      'license_purpose_limit',
    );
    await expectAccessible(page, 'device seat warnings');
    await screenshot(page, 'device-seats');
    const after = await api.send<{ items: { assigned_purposes: string[] }[] }>(
      'GET',
      `/api/v1/devices?serial=${device.serial}`,
    );
    expect(after.items[0]?.assigned_purposes).toEqual(['wifi']);
  });

  test('a viewer sees no revoke, unblock, overrides, releases or rotation, and the API refuses them to viewer and approver', async ({
    page,
    api,
  }) => {
    const device = await api.enroll(unique('VIEW'));
    const viewerEmail = `${unique('viewer').toLowerCase()}@certificate-web.test`;
    const viewerPassword = await api.person(viewerEmail, ['cert-viewer']);
    const approverEmail = `${unique('approver').toLowerCase()}@certificate-web.test`;
    const approverPassword = await api.person(approverEmail, ['cert-approver']);

    await signIn(page, viewerEmail, viewerPassword);
    await openCard(page, device.serial);
    await expect(page.getByTestId('device-purposes')).toBeVisible();
    await expect(page.getByTestId('device-revoke')).toHaveCount(0);
    await expect(
      page.getByRole('button', { name: /Revoke|Unblock|Rotate|Release|Reset|Unbind|Save/ }),
    ).toHaveCount(0);
    await expect(page.getByRole('combobox', { name: /Override for/ })).toHaveCount(0);
    await expect(page.getByTestId('device-logs')).toHaveCount(0);
    await expect(page.getByTestId('device-directives')).toHaveCount(0);
    await expectAccessible(page, 'device card as viewer');
    await screenshot(page, 'device-card-viewer');

    const base = `${webUrl()}/api/v1/devices/${device.serial}`;
    for (const [email, password] of [
      [viewerEmail, viewerPassword],
      [approverEmail, approverPassword],
    ] as const) {
      const person = await api.as(email, password);
      const calls = [
        person.request.post(`${base}/revoke`, { headers: person.headers(), data: {} }),
        person.request.post(`${base}/unblock`, { headers: person.headers(), data: {} }),
        person.request.put(`${base}/purpose-overrides`, {
          headers: person.headers(),
          data: { overrides: { vpn: 'allow' } },
        }),
        person.request.post(`${base}/rotate-enrollment-token`, {
          headers: person.headers(),
          data: {},
        }),
        person.request.post(`${base}/release-continuity-key`, {
          headers: person.headers(),
          data: {},
        }),
      ];
      for (const response of await Promise.all(calls)) {
        expect(response.status(), `${email} ${response.url()}`).toBe(403);
      }
    }
    const after = await api.send<{ items: { blocked: boolean; purpose_overrides: object }[] }>(
      'GET',
      `/api/v1/devices?serial=${device.serial}`,
    );
    expect(after.items[0]).toMatchObject({ blocked: false, purpose_overrides: {} });
  });
});
