import { admin, expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';

test('dashboard shows the stats route (also in Russian); versions shows server and UI with the mismatch marked', async ({
  page,
  api,
}) => {
  const stats = await api.send<{ devices: { total: number }; requests: Record<string, number> }>(
    'GET',
    '/api/v1/admin/stats',
  );
  await signIn(page, admin.email(), admin.password());
  await expect(page.getByTestId('stat-devices')).toHaveText(String(stats.devices.total));
  await expect(page.getByTestId('stat-requests-pending')).toHaveText(
    String(stats.requests['pending']),
  );
  await expectAccessible(page, 'dashboard');
  await screenshot(page, 'dashboard');
  // Russian, kept across a reload; then English again.
  await page.getByText('Русский').click();
  await expect(page.getByRole('heading', { name: 'Сводка' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('link', { name: 'Запросы' })).toBeVisible();
  await screenshot(page, 'dashboard-russian');
  await page.getByText('English').click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  await page.getByRole('link', { name: 'Versions' }).click();
  const version = await api.send<{ version: string; commit: string }>('GET', '/api/v1/version');
  await expect(page.getByTestId('version-server')).toContainText(version.version);
  await expect(page.getByTestId('version-server')).toContainText('v-e2e');
  await expect(page.getByTestId('version-ui')).toContainText('v-e2e');
  await expect(page.getByTestId('versions-match')).toBeVisible();
  await expectAccessible(page, 'versions');
  await screenshot(page, 'versions');

  // A server of another X.Y and another image tag: both marked, and warned about on every page.
  await page.route('**/api/v1/version', async (route) => {
    const real = await route.fetch();
    const body = (await real.json()) as { version: string; image_tag: string | null };
    body.version = `99.${body.version.split('.').slice(1).join('.')}`;
    body.image_tag = 'v-other';
    await route.fulfill({ response: real, json: body });
  });
  await page.reload();
  await expect(page.getByTestId('versions-mismatch')).toContainText('version 99.');
  await expect(page.getByTestId('versions-mismatch')).toContainText('image tag v-other vs v-e2e');
  await expect(page.getByTestId('version-mismatch-mark')).toHaveText(/99\./);
  await expect(page.getByTestId('version-mismatch')).toContainText('the API is 99.');
  await expectAccessible(page, 'versions mismatch');
  await screenshot(page, 'versions-mismatch');
});
