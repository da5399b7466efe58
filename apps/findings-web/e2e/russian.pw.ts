import { admin, expect, screenshot, test, webUrl } from './support/fixtures';

test.use({ locale: 'ru-RU' });

test('Russian by the browser language, API errors in Russian; switching to English and back', async ({
  page,
}) => {
  await page.goto(`${webUrl()}/login`);
  await expect(page.getByRole('button', { name: 'Войти', exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');

  await page.getByLabel('Логин (e-mail)').fill(admin.email());
  await page.getByRole('textbox', { name: 'Пароль', exact: true }).fill('wrong-password-1A');
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
  const refused = page.getByTestId('api-error');
  await expect(refused).toContainText('invalid_credentials');
  await expect(refused).toContainText(/[а-яА-Я]{4,}/);

  await page.getByRole('textbox', { name: 'Пароль', exact: true }).fill(admin.password());
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Уязвимости' })).toBeVisible();

  await page.goto(`${webUrl()}/findings?mode=query&q=${encodeURIComponent('severity:')}`);
  await expect(page.getByTestId('query-syntax-error')).toContainText(
    'синтаксическая ошибка в запросе',
  );
  await screenshot(page, 'russian-query-error');

  await page.getByText('English', { exact: true }).click();
  await expect(page.getByRole('link', { name: 'Findings' })).toBeVisible();
  await expect(page.getByTestId('query-syntax-error')).toContainText(
    'query syntax error at position',
  );
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.getByText('Русский', { exact: true }).click();
  await expect(page.getByRole('link', { name: 'Проекты' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('link', { name: 'Проекты' })).toBeVisible();
  await screenshot(page, 'russian');
});
