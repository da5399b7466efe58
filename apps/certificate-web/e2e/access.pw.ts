import {
  admin,
  expect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
} from './support/fixtures';

interface ServiceAccount {
  id: string;
  name: string;
  token_prefix: string;
  allowed_purposes: string[];
  expires_at: string | null;
}

test('a service-account token is shown once; an administrator changes a role and the users list shows it', async ({
  page,
  api,
}) => {
  const email = `${unique('person').toLowerCase()}@certificate-web.test`;
  await api.person(email, ['cert-viewer']);
  await signIn(page, admin.email(), admin.password());
  await page.getByRole('link', { name: 'Access' }).click();

  // A role change.
  const row = page.getByTestId('user-row').filter({ hasText: email });
  await expect(row.getByTestId('user-roles')).toHaveText('Viewer');
  await row.getByRole('button', { name: `Change roles of ${email}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('checkbox', { name: 'Viewer' }).uncheck();
  await dialog.getByRole('checkbox', { name: 'Approver' }).check();
  await expect(dialog).toHaveCSS('opacity', '1');
  await expectAccessible(page, 'roles dialog');
  await dialog.getByRole('button', { name: 'Save roles' }).click();
  await expect(row.getByTestId('user-roles')).toHaveText('Approver');
  const users = await api.send<{ items: { email: string; roles: string[] }[] }>(
    'GET',
    '/api/v1/users',
  );
  expect(users.items.find((u) => u.email === email)?.roles).toEqual(['cert-approver']);

  // A service account: SSH and Wi-Fi, 30 days.
  const name = unique('mdm');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Expires in days' }).fill('30');
  await page.getByRole('checkbox', { name: 'SSH' }).check();
  await page.getByRole('button', { name: 'Create service account' }).click();
  const secret = page.getByTestId('one-time-secret');
  await expect(secret).toContainText('shown once');
  const token = (await secret.getByTestId('secret-value').textContent()) ?? '';
  expect(token).toMatch(/^wca_/);
  await expectAccessible(page, 'service-account token');
  await screenshot(page, 'access-token-once');
  const accounts = await api.send<{ items: ServiceAccount[] }>('GET', '/api/v1/service-accounts');
  const account = accounts.items.find((a) => a.name === name);
  expect(account?.allowed_purposes.sort()).toEqual(['ssh', 'wifi']);
  expect(account?.expires_at).not.toBeNull();
  expect(token.startsWith(account?.token_prefix ?? '-')).toBe(true);
  // The token works (an auto-approver reads the queue).
  const asAccount = await page.request.get(`${webUrl()}/api/v1/requests`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(asAccount.status()).toBe(200);

  // Gone once stored, and nowhere after a reload: the list shows only the prefix.
  await secret.getByRole('button', { name: 'I have stored it' }).click();
  await expect(page.getByTestId('one-time-secret')).toHaveCount(0);
  await expect(page.getByText(token)).toHaveCount(0);
  await page.reload();
  const saRow = page.getByTestId('service-account-row').filter({ hasText: name });
  await expect(saRow).toContainText(account?.token_prefix ?? '-');
  await expect(page.getByTestId('one-time-secret')).toHaveCount(0);
  expect(await page.content()).not.toContain(token);
  await expectAccessible(page, 'access');
  await screenshot(page, 'access');

  // Disable, then delete (after a confirmation): the token stops working.
  await saRow.getByRole('button', { name: `Disable ${name}` }).click();
  await expect(saRow).toContainText('disabled');
  await saRow.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(saRow).toHaveCount(0);
  const afterDelete = await page.request.get(`${webUrl()}/api/v1/requests`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(afterDelete.status()).toBe(401);
});

test('an approver sees no access screen and no settings actions, and the API refuses them', async ({
  page,
  api,
}) => {
  const email = `${unique('approver').toLowerCase()}@certificate-web.test`;
  const password = await api.person(email, ['cert-approver']);
  await signIn(page, email, password);
  await expect(page.getByRole('link', { name: 'Access' })).toHaveCount(0);
  await page.goto(`${webUrl()}/access`);
  await expect(page.getByTestId('admin-only')).toBeVisible();
  await expect(page.getByTestId('user-row')).toHaveCount(0);
  await expectAccessible(page, 'access as approver');

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByTestId('settings-read-only')).toBeVisible();
  await expect(page.getByTestId('settings-source-auth')).toContainText('Step');
  await expect(page.getByTestId('settings-system')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Save/ })).toHaveCount(0);
  await expect(page.getByTestId('allowlist-row')).toHaveCount(0);
  await expectAccessible(page, 'settings as approver');
  await screenshot(page, 'settings-approver');

  const approver = await api.as(email, password);
  const refusals: [string, string, unknown][] = [
    ['POST', '/api/v1/service-accounts', { name: unique('sneaky') }],
    ['PUT', `/api/v1/users/${encodeURIComponent(email)}/roles`, { roles: ['cert-admin'] }],
    ['PUT', '/api/v1/settings/enroll-source-auth', { mode: 'off' }],
    ['PUT', '/api/v1/settings/sa-auto-approve', { policy: 'off' }],
    ['GET', '/api/v1/settings/system', undefined],
    ['GET', '/api/v1/users', undefined],
  ];
  for (const [method, path, data] of refusals) {
    const res = await page.request.fetch(`${webUrl()}${path}`, {
      method,
      headers: approver.headers(),
      ...(data === undefined ? {} : { data }),
    });
    expect(res.status(), `${method} ${path}`).toBe(403);
  }
});
