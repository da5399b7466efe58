import {
  expect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
} from './support/fixtures';

test('the audit log filters by action and actor, pages with Load more and downloads the filtered view as CSV', async ({
  page,
  api,
}) => {
  // A second administrator whose actions are only this test's: 103 records (more than a page):
  // the account's creation, 101 enable calls, one purposes change.
  const email = `${unique('auditor').toLowerCase()}@certificate-web.test`;
  const password = await api.person(email, ['cert-admin']);
  const other = await api.as(email, password);
  const account = await other.send<{ id: string }>('POST', '/api/v1/service-accounts', {
    name: unique('audited'),
  });
  // Every call is audited, a change or not: 101 of them, 20 at a time.
  for (let done = 0; done < 101; done += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, 101 - done) }, () =>
        other.send('PUT', `/api/v1/service-accounts/${account.id}/enabled`, { enabled: true }),
      ),
    );
  }
  await other.send('PUT', `/api/v1/service-accounts/${account.id}/allowed-purposes`, {
    allowed_purposes: ['wifi', 'vpn'],
  });

  await signIn(page, email, password);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByRole('textbox', { name: 'Actor' }).fill(email);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/actor=/);
  await expect(page.getByTestId('audit-total')).toHaveText('100 of 103 records');
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(page.getByTestId('audit-row')).toHaveCount(103);
  await expect(page.getByTestId('audit-total')).toHaveText('103 of 103 records');
  await expectAccessible(page, 'audit');
  await screenshot(page, 'audit');

  // One action (the form's list), kept in the URL.
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('combobox', { name: 'Action' }).fill('allowed_purposes');
  await page.getByRole('option', { name: 'service_account.allowed_purposes_change' }).click();
  await expect(page).toHaveURL(/action=service_account.allowed_purposes_change/);
  await expect(page.getByTestId('audit-row')).toHaveCount(1);
  await expect(page.getByTestId('audit-row')).toContainText(account.id);
  await expect(page.getByTestId('audit-row')).toContainText('vpn');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  let text = '';
  for await (const chunk of await (await download).createReadStream()) text += String(chunk);
  const csvLines = text.trim().split(/\r?\n/);
  expect(csvLines[0]).toBe('id,at,action,actor,actor_kind,target,details');
  expect(csvLines).toHaveLength(2);
  expect(csvLines[1]).toContain('service_account.allowed_purposes_change');
  expect(csvLines[1]).toContain(email);

  // The route the button uses, refused without a session.
  const anonymous = await page.request.get(`${webUrl()}/api/v1/audit.csv`);
  expect(anonymous.status()).toBe(401);
});
