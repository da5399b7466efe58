import {
  admin,
  Api,
  expect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
} from './support/fixtures';
import {
  restoreLicense,
  saveLicense,
  signedLicenseFile,
  tamperWithLedger,
  type SavedLicense,
} from './support/license-state';

interface Status {
  mode: string;
  tamper: boolean;
  deployment_instance_key: string;
  purpose_seats: { purpose: string; bought: number }[];
}

let saved: SavedLicense;

test.beforeAll(async () => {
  saved = await saveLicense();
});

test.afterAll(async ({ request }) => {
  await restoreLicense(await new Api(request).as(admin.email(), admin.password()), saved);
});

test('an administrator activates a .lic file and sets the seat step; after the ledger is edited the tamper banner shows on every page until the reanchor', async ({
  page,
  api,
}) => {
  const status = await api.send<Status>('GET', '/api/v1/license/status');
  const issuedTo = unique('Licensee');
  await signIn(page, admin.email(), admin.password());
  await page.getByRole('link', { name: 'License' }).click();
  await expect(page.getByTestId('license-instance-key')).toHaveText(status.deployment_instance_key);
  await expect(page.getByTestId('tamper-banner')).toHaveCount(0);

  // Activation by uploading the vendor's file.
  await page.locator('input[type="file"]').setInputFiles({
    name: 'example.lic',
    mimeType: 'application/json',
    buffer: signedLicenseFile(
      status.deployment_instance_key,
      90_000,
      { wifi: 7, ssh: 2 },
      issuedTo,
    ),
  });
  await page.getByRole('button', { name: 'Activate', exact: true }).click();
  await expect(page.getByTestId('license-activated')).toContainText(issuedTo);
  await expect(page.getByTestId('license-mode')).toHaveText('licensed');
  await expect(page.getByTestId('license-issued-to')).toHaveText(issuedTo);
  await expect(page.getByTestId('license-devices')).toContainText('of 90000 in use');
  const wifi = page.locator('[data-testid="seat-row"][data-purpose="wifi"]');
  await expect(wifi.getByRole('cell').nth(1)).toHaveText('7');
  // A file of another vendor is refused with the service's code; the license stays.
  await page.locator('input[type="file"]').setInputFiles({
    name: 'forged.lic',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"certsvc-license/v1","payload":"e30=","signature":"AAAA"}'),
  });
  await page.getByRole('button', { name: 'Activate', exact: true }).click();
  await expect(page.getByTestId('api-error')).toContainText('license_invalid');
  await expect(page.getByTestId('license-issued-to')).toHaveText(issuedTo);

  // The enforcement step.
  await page.getByRole('combobox', { name: 'Step at approval' }).click();
  await page.getByRole('option', { name: '2 — log and highlight, still issue' }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect
    .poll(
      async () =>
        (await api.send<{ step: number }>('GET', '/api/v1/license/seat-enforcement')).step,
    )
    .toBe(2);
  await expectAccessible(page, 'license');
  await screenshot(page, 'license');

  // A counted device (the ledger has a row), then the ledger edited: the next new device is
  // refused, and the service is in tamper.
  const first = await api.enroll(unique('LIC'));
  await api.send('POST', '/api/v1/requests/approve', { request_ids: [first.requestId] });
  await tamperWithLedger();
  const second = await api.enroll(unique('LIC'));
  const refused = await api.request.post(`${webUrl()}/api/v1/requests/approve`, {
    headers: api.headers(),
    data: { request_ids: [second.requestId] },
  });
  expect(refused.status()).toBe(402);
  expect(((await refused.json()) as { code: string }).code).toBe('license_tamper');

  // Shown on every page: the dashboard first.
  await page.goto(`${webUrl()}/dashboard`);
  await expect(page.getByTestId('tamper-banner')).toContainText('License ledger integrity failure');
  await expect(page.getByTestId('stat-devices')).toBeVisible();
  await expectAccessible(page, 'dashboard with the tamper banner');
  await screenshot(page, 'license-tamper-banner');
  await page.getByRole('link', { name: 'Open the license screen' }).click();
  await page.getByRole('button', { name: 'Re-anchor' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Re-anchor the usage ledger?');
  // axe on the dialog once its opening transition is over (colours are blended while it fades in).
  await expect(dialog).toHaveCSS('opacity', '1');
  await expectAccessible(page, 'reanchor confirmation');
  await dialog.getByRole('button', { name: 'Re-anchor' }).click();
  await expect(page.getByTestId('reanchor-result')).toContainText('Ledger re-anchored');
  await expect(page.getByTestId('tamper-banner')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('license-mode')).toBeVisible();
  await expect(page.getByTestId('tamper-banner')).toHaveCount(0);
  expect((await api.send<Status>('GET', '/api/v1/license/status')).tamper).toBe(false);
  await screenshot(page, 'license-reanchored');
});

test('a viewer reads the license screen without its actions, and the API refuses them', async ({
  page,
  api,
}) => {
  const email = `${unique('viewer').toLowerCase()}@certificate-web.test`;
  const password = await api.person(email, ['cert-viewer']);
  await signIn(page, email, password);
  await page.getByRole('link', { name: 'License' }).click();
  await expect(page.getByTestId('license-mode')).toBeVisible();
  await expect(page.getByTestId('license-step')).toBeVisible();
  for (const name of ['Activate', 'Re-anchor', 'Save']) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole('combobox', { name: 'Step at approval' })).toHaveCount(0);
  await expect(page.locator('input[type="file"]')).toHaveCount(0);
  await expectAccessible(page, 'license as viewer');
  await screenshot(page, 'license-viewer');
  const viewer = await api.as(email, password);
  for (const [path, data] of [
    ['/api/v1/license/reanchor', {}],
    ['/api/v1/license/activate', { license_b64: 'e30=' }],
  ] as const) {
    const res = await page.request.post(`${webUrl()}${path}`, { headers: viewer.headers(), data });
    expect(res.status(), path).toBe(403);
  }
  const step = await page.request.put(`${webUrl()}/api/v1/license/seat-enforcement`, {
    headers: viewer.headers(),
    data: { step: 3 },
  });
  expect(step.status()).toBe(403);
});
