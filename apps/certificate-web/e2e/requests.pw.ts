import type { Page } from '@playwright/test';
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
  webUrl as webUrlOf,
  Api,
} from './support/fixtures';

/** The requests queue, with `query` (filters) in its URL. */
async function openQueue(page: Page, query = ''): Promise<void> {
  await page.goto(`${webUrlOf()}/requests${query}`);
  await expect(page.getByTestId('requests-total')).toBeVisible();
}

function rowOf(page: Page, serial: string) {
  return page.getByTestId('request-row').filter({ hasText: serial });
}

function resultOf(page: Page, requestId: string) {
  return page.locator(`[data-testid="bulk-result"][data-request-id="${requestId}"]`);
}

async function select(page: Page, serials: string[]): Promise<void> {
  for (const serial of serials) {
    await page.getByRole('checkbox', { name: `Select ${serial} Wi-Fi` }).check();
  }
}

/** Edits the newest row of the append-only usage ledger, as an attacker with database access would. */
async function tamperWithLedger(): Promise<void> {
  const client = new Client({ connectionString: stackVar('CERT_DATABASE_URL') });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      'ALTER TABLE license_ledger DISABLE TRIGGER "TRG_license_ledger_append_only"',
    );
    const edited = await client.query(
      `UPDATE license_ledger SET at = at - interval '1 day'
        WHERE seq = (SELECT max(seq) FROM license_ledger)`,
    );
    expect(edited.rowCount).toBe(1);
    await client.query(
      'ALTER TABLE license_ledger ENABLE TRIGGER "TRG_license_ledger_append_only"',
    );
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

async function activeDevices(api: Api): Promise<number> {
  return (await api.send<{ active_count: number }>('GET', '/api/v1/license/status')).active_count;
}

test.describe('requests queue', () => {
  test.afterAll(async ({ request }) => {
    // Leaves the service open for the other files: a large license without seats, step 1.
    const api = await new Api(request).as(admin.email(), admin.password());
    await api.send('PUT', '/api/v1/license/seat-enforcement', { step: 1 });
    await api.license(100_000);
    // After a failure half-way: out of tamper (refused when there is nothing to restore).
    await api.request.post(`${webUrlOf()}/api/v1/license/reanchor`, {
      headers: api.headers(),
      data: {},
    });
  });

  test('an approver bulk-approves a mixed batch and sees each row outcome: issued, license_limit, not pending, license_purpose_limit, license_tamper', async ({
    page,
    api,
  }) => {
    const email = `${unique('approver').toLowerCase()}@certificate-web.test`;
    const password = await api.person(email, ['cert-approver']);
    // Room for exactly two more devices.
    await api.license((await activeDevices(api)) + 2);
    const prefix = unique('MIX');
    const devices = [];
    for (const n of [1, 2, 3, 4]) devices.push(await api.enroll(`${prefix}-${n}`));
    const [d1, d2, d3, d4] = devices as [
      (typeof devices)[0],
      (typeof devices)[0],
      (typeof devices)[0],
      (typeof devices)[0],
    ];

    await signIn(page, email, password);
    await openQueue(page);
    // An approver approves but does not reject.
    await expect(page.getByRole('button', { name: 'Approve selected' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Reject selected' })).toHaveCount(0);
    await select(
      page,
      devices.map((d) => d.serial),
    );
    await expect(page.getByText('4 selected')).toBeVisible();
    // Meanwhile an administrator rejects one of them.
    await api.send('POST', '/api/v1/requests/reject', { request_ids: [d4.requestId] });
    await page.getByRole('button', { name: 'Approve selected' }).click();

    // Newest first (the order shown): d4 is no longer pending, d3 and d2 take the two free
    // device slots, d1 finds none.
    await expect(page.getByTestId('bulk-summary')).toHaveText('Results: 2 done, 2 refused');
    await expect(resultOf(page, d4.requestId)).toHaveAttribute(
      'data-outcome',
      'request_not_pending',
    );
    await expect(resultOf(page, d4.requestId)).toContainText('request is no longer pending');
    await expect(resultOf(page, d3.requestId)).toHaveAttribute('data-outcome', 'issued');
    await expect(resultOf(page, d2.requestId)).toHaveAttribute('data-outcome', 'issued');
    await expect(resultOf(page, d2.requestId)).toContainText(/certificate [0-9a-f]+/i);
    await expect(resultOf(page, d1.requestId)).toHaveAttribute('data-outcome', 'license_limit');
    await expect(resultOf(page, d1.requestId)).toContainText('license device limit reached');
    // The refused request stays pending in the queue; the approved ones left it.
    await expect(rowOf(page, d1.serial)).toHaveCount(1);
    await expect(rowOf(page, d2.serial)).toHaveCount(0);
    await expectAccessible(page, 'requests with results');
    await screenshot(page, 'requests-mixed-results');

    // Seats per purpose at step 3: no Wi-Fi seat left (a license without Wi-Fi seats: whatever
    // the other files' devices hold, d1's Wi-Fi request needs a seat that is not there). One
    // request: the API answers 402, shown as that row's outcome.
    const used = await activeDevices(api);
    await api.license(used + 100, { wifi: 0 });
    await api.send('PUT', '/api/v1/license/seat-enforcement', { step: 3 });
    await page.getByRole('button', { name: 'Close' }).click();
    await select(page, [d1.serial]);
    await page.getByRole('button', { name: 'Approve selected' }).click();
    await expect(resultOf(page, d1.requestId)).toHaveAttribute(
      'data-outcome',
      'license_purpose_limit',
    );
    await expect(resultOf(page, d1.requestId)).toContainText('no license seat left');

    // An edited usage ledger: every new issuance is refused until an administrator reanchors.
    await api.send('PUT', '/api/v1/license/seat-enforcement', { step: 1 });
    await tamperWithLedger();
    await page.getByRole('button', { name: 'Close' }).click();
    await select(page, [d1.serial]);
    await page.getByRole('button', { name: 'Approve selected' }).click();
    await expect(resultOf(page, d1.requestId)).toHaveAttribute('data-outcome', 'license_tamper');
    await expect(resultOf(page, d1.requestId)).toContainText('license ledger integrity failure');
    await screenshot(page, 'requests-license-tamper');
    await api.send('POST', '/api/v1/license/reanchor', {});
  });

  test('a viewer sees the queue without selection or actions, and the API refuses its approval', async ({
    page,
    api,
  }) => {
    const email = `${unique('viewer').toLowerCase()}@certificate-web.test`;
    const password = await api.person(email, ['cert-viewer']);
    const device = await api.enroll(unique('VIEW'));
    await signIn(page, email, password);
    await expect(page.getByTestId('current-role')).toHaveText('Viewer');
    await openQueue(page, `?serial=${encodeURIComponent(device.serial)}`);
    await expect(rowOf(page, device.serial)).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Approve selected' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Reject selected' })).toHaveCount(0);
    await expect(page.getByRole('checkbox')).toHaveCount(0);
    await expectAccessible(page, 'requests as viewer');
    await screenshot(page, 'requests-viewer');

    // The server decides anyway: the viewer's own token is refused.
    const viewer = await api.as(email, password);
    const refused = await page.request.post(`${webUrlOf()}/api/v1/requests/approve`, {
      headers: viewer.headers(),
      data: { request_ids: [device.requestId] },
    });
    expect(refused.status()).toBe(403);
    const still = await api.send<{ items: { status: string }[] }>(
      'GET',
      `/api/v1/requests?serial=${encodeURIComponent(device.serial)}`,
    );
    expect(still.items.map((r) => r.status)).toEqual(['pending']);
  });

  test('an administrator filters, exports the view as CSV, is warned of a serial conflict before approving, and bulk-rejects', async ({
    page,
    api,
  }) => {
    // A device holding a certificate enrolls again: its renewal conflicts with that certificate.
    const serial = unique('REN');
    const first = await api.enroll(serial);
    await api.send('POST', '/api/v1/requests/approve', { request_ids: [first.requestId] });
    const renewal = await api.enroll(serial, first.enrollmentToken);
    await signIn(page, admin.email(), admin.password());
    await openQueue(page, `?status=all&serial=${encodeURIComponent(serial)}`);
    await expect(page.getByTestId('requests-total')).toHaveText('2 of 2 requests');
    await expect(page.getByRole('textbox', { name: 'Device serial' })).toHaveValue(serial);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    let text = '';
    for await (const chunk of await (await download).createReadStream()) text += String(chunk);
    expect(text).toContain(first.requestId);
    expect(text).toContain(renewal.requestId);
    expect(text.trim().split('\n')).toHaveLength(3);

    // Pending only, by serial through the form.
    await openQueue(page);
    await page.getByRole('textbox', { name: 'Device serial' }).fill(serial);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(new RegExp(`serial=${serial}`));
    await expect(page.getByTestId('request-row')).toHaveCount(1);
    await select(page, [serial]);
    await page.getByRole('button', { name: 'Approve selected' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('conflicts')).toContainText(serial);
    await expect(dialog.getByTestId('conflicts')).toContainText('an active certificate');
    await expectAccessible(page, 'serial conflicts');
    await screenshot(page, 'requests-conflicts');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(rowOf(page, serial)).toHaveCount(1);

    await page.getByRole('button', { name: 'Reject selected' }).click();
    await page.getByLabel('Reason (optional, shown in the audit log)').fill('unknown laptop');
    await page.getByRole('dialog').getByRole('button', { name: 'Reject selected' }).click();
    await expect(resultOf(page, renewal.requestId)).toHaveAttribute('data-outcome', 'rejected');
    await expect(page.getByTestId('request-row')).toHaveCount(0);
    await screenshot(page, 'requests-rejected');
  });
});
