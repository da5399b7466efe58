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
  // Fingerprints as name: value lines (the scanner's partial fingerprint), empty maps as a dash.
  const fingerprints = page.getByTestId('fingerprints');
  await expect(fingerprints).toContainText('primaryLocationLineHash: 5f2b1c9e0a7d4e31:1');
  await expect(fingerprints).not.toContainText('{');
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
  // The action log shows the three changes, field by field, in words.
  const log = page.getByTestId('action-log');
  const changes = log.locator('[data-testid=action][data-action=status_changed]');
  await expect(changes).toHaveCount(3);
  await expect(log.getByText('Status changed')).toHaveCount(3);
  // Oldest first: the second set the waiting fields, the third (waiting -> in_progress)
  // cleared them. Its deadline is logged as effective at that moment (paused time included),
  // so it shows no change there.
  const resumed = changes.nth(2);
  await expect(resumed.locator('[data-field=status]')).toHaveText('Status: Waiting → In progress');
  await expect(resumed.locator('[data-field=waiting_reason]')).toHaveText(
    'Waiting reason: vendor patch expected → —',
  );
  await expect(resumed.locator('[data-field=sla_due_at]')).toHaveCount(0);
  await expect(changes.nth(0).locator('[data-field=sla_due_at]')).toContainText('Deadline: — → ');
  await expect(changes.nth(1).locator('[data-field=waiting_reason]')).toHaveText(
    'Waiting reason: — → vendor patch expected',
  );
  await screenshot(page, 'triage-resumed');
});
