import { readFileSync } from 'node:fs';
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

interface CertificateBody {
  serial: string;
  status: string;
  revocation_reason: string | null;
  key_protection: string;
}

async function issued(api: Api): Promise<{ serial: string; device: string }> {
  const device = await api.enroll(unique('CERT'));
  const answer = await api.send<{ results: { serial?: string }[] }>(
    'POST',
    '/api/v1/requests/approve',
    { request_ids: [device.requestId] },
  );
  const serial = answer.results[0]?.serial ?? '';
  expect(serial).toMatch(/^[0-9a-f]+$/);
  return { serial, device: device.serial };
}

test.describe('certificates', () => {
  let saved: SavedLicense;
  test.beforeAll(async ({ request }) => {
    // Room for this file's devices (the free mode allows 50 for the whole run), put back after.
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

  test('a certificate revoked from the list shows revoked; the detail sets key protection and downloads the bundle', async ({
    page,
    api,
  }) => {
    const [kept, revoked] = [await issued(api), await issued(api)];
    await signIn(page, admin.email(), admin.password());
    await page.goto(`${webUrl()}/certificates?serial=${revoked.serial.slice(0, 16)}`);
    const row = page.getByTestId('certificate-row').filter({ hasText: revoked.serial });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('certificate-status')).toHaveText('active');
    await expectAccessible(page, 'certificates list');
    await screenshot(page, 'certificates-list');

    await row.getByRole('button', { name: `Revoke ${revoked.serial}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'keyCompromise' }).click();
    // The confirmation dialog (the same one the device card uses) with the reason list, once
    // its opening transition is over (colours are blended while it fades in).
    await expect(dialog).toHaveCSS('opacity', '1');
    await expectAccessible(page, 'certificate revoke dialog');
    await screenshot(page, 'certificate-revoke-dialog');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect(row.getByTestId('certificate-status')).toHaveText('revoked');
    await expect(row.getByRole('button', { name: /Revoke/ })).toHaveCount(0);
    const after = await api.send<CertificateBody>('GET', `/api/v1/certificates/${revoked.serial}`);
    expect(after).toMatchObject({ status: 'revoked', revocation_reason: 'keyCompromise' });
    // The list filtered by status (URL and form) holds it among the revoked only.
    await page.goto(`${webUrl()}/certificates?device=${revoked.device}&status=revoked`);
    await expect(page.getByTestId('certificates-total')).toHaveText('1 of 1 certificates');
    await page.goto(`${webUrl()}/certificates?device=${kept.device}&status=revoked`);
    await expect(page.getByTestId('certificates-total')).toHaveText('0 of 0 certificates');
    // A certificate revoke keeps the device's license slot; the device revoke gives it back, so
    // the slots and the Wi-Fi seats in use stay equal for the files that count them.
    await api.send('POST', `/api/v1/devices/${revoked.device}/revoke`);

    // The detail of the other: key protection, bundle.
    await page.goto(`${webUrl()}/certificates?device=${kept.device}`);
    await page.getByRole('link', { name: `Details of ${kept.serial}` }).click();
    await expect(page.getByTestId('certificate-status')).toHaveText('active');
    await page.getByRole('combobox', { name: 'Key protection (owner confirmation)' }).click();
    await page.getByRole('option', { name: 'prompt the owner before use' }).click();
    await page.getByRole('button', { name: 'Save key protection' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    expect(
      (await api.send<CertificateBody>('GET', `/api/v1/certificates/${kept.serial}`))
        .key_protection,
    ).toBe('prompt');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download bundle (ZIP)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`certificate-${kept.serial}.zip`);
    const zip = readFileSync(await download.path());
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(zip.includes(Buffer.from('fullchain.pem'))).toBe(true);
    await expectAccessible(page, 'certificate detail');
    await screenshot(page, 'certificate-detail');
  });

  test('a viewer sees certificates without revoke or key protection, and the API refuses the revoke (403)', async ({
    page,
    api,
  }) => {
    const cert = await issued(api);
    const email = `${unique('viewer').toLowerCase()}@certificate-web.test`;
    const password = await api.person(email, ['cert-viewer']);
    await signIn(page, email, password);
    await page.goto(`${webUrl()}/certificates/${cert.serial}`);
    await expect(page.getByTestId('certificate-status')).toHaveText('active');
    await expect(page.getByRole('button', { name: 'Download bundle (ZIP)' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Revoke|Save/ })).toHaveCount(0);
    await page.goto(`${webUrl()}/certificates?device=${cert.device}`);
    await expect(page.getByTestId('certificate-row')).toHaveCount(1);
    await expect(page.getByRole('button', { name: /Revoke/ })).toHaveCount(0);
    await expectAccessible(page, 'certificates as viewer');
    const viewer = await api.as(email, password);
    const refused = await viewer.request.post(
      `${webUrl()}/api/v1/certificates/${cert.serial}/revoke`,
      { headers: viewer.headers(), data: { reason: 'keyCompromise' } },
    );
    expect(refused.status()).toBe(403);
    const protect = await viewer.request.put(
      `${webUrl()}/api/v1/certificates/${cert.serial}/key-protection`,
      { headers: viewer.headers(), data: { level: 'required' } },
    );
    expect(protect.status()).toBe(403);
    expect(
      await api.send<CertificateBody>('GET', `/api/v1/certificates/${cert.serial}`),
    ).toMatchObject({ status: 'active', key_protection: 'none' });
  });
});
