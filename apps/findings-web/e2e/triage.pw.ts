import type { Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  screenshot,
  seedFindings,
  signIn,
  test,
  webUrl,
} from './support/fixtures';

async function changeStatus(page: Page, label: string) {
  const form = page.getByRole('form', { name: 'Change status' });
  await form.getByLabel('New status').click();
  await page.getByRole('option', { name: label, exact: true }).click();
  return form;
}

test('triage in_progress -> waiting -> in_progress: the deadline pauses, then moves by the idle time', async ({
  page,
  api,
}) => {
  const { project } = await seedFindings(api);
  const [high] = (
    await api.get<{ items: { id: string; severity: string }[] }>(
      `/api/v1/findings?project_id=${project.id}&severity=HIGH`,
    )
  ).items;
  await signIn(page);
  expect(high).toBeDefined();
  await page.goto(`${webUrl()}/findings/${high?.id ?? ''}`);
  await expect(page.getByRole('heading', { name: 'Rule sql-injection' })).toBeVisible();
  await expect(page.getByTestId('snippet')).toContainText('vulnerable(10)');
  await expect(page.getByTestId('location')).toContainText('src/db.ts:10');
  // Enrichment by button: one button per enabled enricher plugin (plugins.pw.ts may have enabled one).
  const enrichers = await api.get<{ catalog_plugin_id: string; version: string }[]>(
    '/api/v1/plugins/capabilities/finding-enrichers',
  );
  const enrichment = page.getByTestId('enrichment');
  if (enrichers.length === 0)
    await expect(enrichment).toContainText('No enricher plugin is enabled.');
  for (const e of enrichers) {
    await expect(
      enrichment.getByRole('button', { name: `Enrich with ${e.catalog_plugin_id} ${e.version}` }),
    ).toBeVisible();
  }
  await expectAccessible(page, 'finding');
  const deadline = page.getByTestId('deadline');
  await expect(deadline).toHaveAttribute('data-due', '');

  let form = await changeStatus(page, 'In progress');
  await form.getByRole('button', { name: 'Change status' }).click();
  await expect(deadline).not.toHaveAttribute('data-due', '');
  const due1 = Date.parse((await deadline.getAttribute('data-due')) ?? '');
  await expect(deadline).toContainText('(14 d)');

  // Waiting needs a reason and a date at most 30 days ahead.
  form = await changeStatus(page, 'Waiting');
  await expect(form.getByRole('button', { name: 'Change status' })).toBeEnabled();
  await form.getByRole('textbox', { name: 'Waiting reason' }).fill('vendor patch expected');
  await form.getByRole('button', { name: 'Change status' }).click();
  await expect(deadline).not.toHaveAttribute('data-paused', '');
  await expect(deadline).toContainText('Paused since');
  await screenshot(page, 'triage-waiting');

  form = await changeStatus(page, 'In progress');
  await form.getByRole('button', { name: 'Change status' }).click();
  await expect(deadline).toHaveAttribute('data-paused', '');
  const due2 = Date.parse((await deadline.getAttribute('data-due')) ?? '');
  expect(due2).toBeGreaterThan(due1);
  // The action log shows the three changes.
  await expect(page.getByTestId('action-log')).toContainText('status_changed');
  await expect(page.getByTestId('action-log').getByText('status_changed')).toHaveCount(3);
  await screenshot(page, 'triage-resumed');
});
