import {
  expect,
  expectAccessible,
  screenshot,
  seedFindings,
  signIn,
  test,
  webUrl,
} from './support/fixtures';

test('SLA dashboards: compliance and trend charts with MTTR; the violations list', async ({
  page,
  api,
}) => {
  const { project } = await seedFindings(api);
  // One finding taken into work and fixed: the remediation figures have a fixed finding.
  const { items } = await api.get<{ items: { id: string }[] }>(
    `/api/v1/findings?project_id=${project.id}&severity=HIGH`,
  );
  const id = items[0]?.id ?? '';
  expect(id).not.toBe('');
  await api.request.patch(`${webUrl()}/api/v1/findings/${id}`, {
    headers: api.authHeaders(),
    data: { status: 'in_progress' },
  });
  const fixed = await api.request.patch(`${webUrl()}/api/v1/findings/${id}`, {
    headers: api.authHeaders(),
    data: { status: 'fixed' },
  });
  expect(fixed.status()).toBe(200);

  await signIn(page);
  await page.getByRole('link', { name: 'Dashboards' }).click();
  await expect(page.getByRole('heading', { name: 'Remediation dashboards' })).toBeVisible();
  await expect(page.getByTestId('compliance-overall')).toContainText('%');
  await expect(page.getByTestId('mttr')).toContainText(/\d+(\.\d)? h/);
  await expect(
    page.getByTestId('compliance-chart').locator('svg.recharts-surface').first(),
  ).toBeVisible();
  await expect(
    page.getByTestId('compliance-chart').locator('.recharts-bar-rectangle').first(),
  ).toBeVisible();
  await expect(
    page.getByTestId('trend-chart').locator('svg.recharts-surface').first(),
  ).toBeVisible();
  await expectAccessible(page, 'dashboards');
  await screenshot(page, 'sla-dashboards');

  await page.getByRole('link', { name: 'Deadlines' }).click();
  await expect(page.getByRole('heading', { name: 'Deadline violations' })).toBeVisible();
  await expect(page.getByTestId('violations')).toBeVisible();
  await expectAccessible(page, 'deadlines');

  await page.getByRole('link', { name: 'Jobs' }).click();
  // The job's kind in the UI language (issue 25: the jobs page is translated).
  await expect(page.getByTestId('jobs')).toContainText('Report import');
  await expectAccessible(page, 'jobs');
  await screenshot(page, 'jobs');
});
