import {
  expect,
  expectAccessible,
  sarif,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
} from './support/fixtures';

test('create a project and a product, upload a SARIF and watch it complete; a broken one fails with its parse error', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Projects' }).click();
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await expectAccessible(page, 'projects');

  const projectName = unique('upload');
  await page.getByRole('textbox', { name: 'Name' }).fill(projectName);
  await page.getByRole('button', { name: 'New project' }).click();
  await expect(page.getByRole('heading', { name: projectName })).toBeVisible();

  const form = page.getByRole('form', { name: 'New product' });
  await form.getByRole('textbox', { name: 'Name' }).fill('web-app');
  await form.getByRole('button', { name: 'New product' }).click();
  const product = page.getByTestId('product').filter({ hasText: 'web-app' });
  await expect(product).toBeVisible();
  // Created: the form is empty again for the next product.
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('');
  await expectAccessible(page, 'project');

  const report = sarif('semgrep', [
    { rule: 'xss', level: 'error', file: 'src/view.ts', line: 5, text: 'Reflected XSS' },
    { rule: 'open-redirect', level: 'warning', file: 'src/nav.ts', line: 8, text: 'Open redirect' },
  ]);
  await product.locator('input[type=file]').setInputFiles({
    name: 'scan.sarif',
    mimeType: 'application/json',
    buffer: Buffer.from(report),
  });
  await product.getByRole('button', { name: 'Upload a report' }).click();
  await expect(product.getByTestId('upload-progress')).toBeVisible();
  const state = product.getByTestId('report-state');
  await expect(state).toHaveAttribute('data-state', 'completed', { timeout: 60_000 });
  await expect(state).toContainText('2 results: 2 new');
  await screenshot(page, 'upload-completed');

  await product.locator('input[type=file]').setInputFiles({
    name: 'broken.sarif',
    mimeType: 'application/json',
    buffer: Buffer.from('{"version": "2.1.0", "runs": [ {"tool": '),
  });
  await product.getByRole('button', { name: 'Upload a report' }).click();
  await expect(state).toHaveAttribute('data-state', 'failed', { timeout: 60_000 });
  await expect(state).toContainText('report_malformed');
  await screenshot(page, 'upload-failed');

  // The two findings are in the list, filtered by the new project.
  await page.getByRole('link', { name: 'Findings' }).click();
  await page.goto(
    `${webUrl()}/findings?mode=query&q=${encodeURIComponent(`project:"${projectName}"`)}`,
  );
  await expect(page.getByTestId('finding-row')).toHaveCount(2);
});
