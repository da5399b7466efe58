import {
  expect,
  expectAccessible,
  screenshot,
  seedFindings,
  signIn,
  sql,
  test,
  unique,
  webUrl,
} from './support/fixtures';

/** Three findings of one project on one package and host; two share a CVE. */
async function seedInventory(api: Parameters<typeof seedFindings>[0]) {
  const { project, product } = await seedFindings(api);
  const pkg = unique('left-pad');
  const host = unique('web');
  const cve = unique('CVE-2031');
  const ids = await sql<{ id: string }>(
    `UPDATE findings SET component = $2, host = $3,
            cve = CASE WHEN severity IN ('HIGH', 'MEDIUM') THEN $4 END
      WHERE product_id = $1 RETURNING id`,
    [product.id, pkg, host, cve.toUpperCase()],
  );
  return { project, product, pkg, host, ids: ids.map((r) => r.id) };
}

test('roll-up: rows by package and host with counts, drill-down, won’t fix on a row, the 422 of a task without a provider', async ({
  page,
  api,
}) => {
  const { project, pkg, host } = await seedInventory(api);
  await signIn(page);
  await page.getByRole('link', { name: 'Inventory roll-up' }).click();
  await expect(page.getByRole('heading', { name: 'Inventory roll-up' })).toBeVisible();
  await page.goto(`${webUrl()}/rollup?project_id=${project.id}&axis=package`);
  const rows = page.getByTestId('rollup-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-key', pkg);
  await expect(rows.first().getByTestId('rollup-total')).toHaveText('3');
  await expect(rows.first().getByTestId('rollup-HIGH')).toHaveText('1');
  await expectAccessible(page, 'roll-up by package');

  // By host: the same three; sorting by a severity keeps the row.
  await page.getByTestId('rollup-axis').getByText('Host').click();
  await expect(rows.first()).toHaveAttribute('data-key', host);
  await page.getByTestId('rollup-sort-critical').click();
  await expect(rows).toHaveCount(1);

  // Drill-down: the row's findings and its actions.
  await rows.first().getByRole('button', { name: host }).click();
  const panel = page.getByTestId('rollup-row-panel');
  await expect(panel.getByTestId('rollup-member')).toHaveCount(3);

  // One task for the group: the project has no ticket provider — a clear 422.
  await panel.getByLabel('Action on the whole row').click();
  await page.getByRole('option', { name: 'One task for the group' }).click();
  await panel.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('no-ticket-provider')).toBeVisible();
  await expect(page.getByTestId('api-error')).toContainText('ticket_provider_not_configured');
  await expectAccessible(page, 'roll-up row without a ticket provider');
  await screenshot(page, 'rollup-no-provider');

  // Won't fix needs its reason, then moves all three.
  await panel.getByLabel('Action on the whole row').click();
  await page.getByRole('option', { name: "Won't fix" }).click();
  await panel.getByRole('button', { name: 'Apply' }).click();
  await expect(panel.getByText('Say why (required for this decision)')).toBeVisible();
  await panel.getByLabel('Justification').fill('Vendored, not reachable');
  await panel.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('rollup-done')).toContainText('3 of 3 findings changed');
  const after = await api.get<{ items: { status: string }[] }>(
    `/api/v1/findings?project_id=${project.id}`,
  );
  expect(after.items.map((f) => f.status)).toEqual(['wont_fix', 'wont_fix', 'wont_fix']);
  await expect(rows.first()).toContainText("Won't fix 3");
  await screenshot(page, 'rollup-wont-fix');
});

test('group panel: axes with counts on the finding page, members on click, a status for the whole group (no waiting, risk needs a date)', async ({
  page,
  api,
}) => {
  const { project, ids } = await seedInventory(api);
  await signIn(page);
  await page.goto(`${webUrl()}/findings/${ids[0]}`);
  const panel = page.getByTestId('group-panel');
  const pkgAxis = panel.locator('[data-testid="group-axis"][data-axis="package"]');
  await expect(pkgAxis).toContainText('3 findings');
  await expect(panel.locator('[data-testid="group-axis"][data-axis="host"]')).toContainText(
    '3 findings',
  );
  await pkgAxis.click();
  await expect(panel.getByTestId('group-member')).toHaveCount(3);
  await expectAccessible(page, 'finding group panel');

  await panel.getByLabel('Status for the whole group').click();
  await expect(page.getByRole('option', { name: 'In progress', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Waiting', exact: true })).toHaveCount(0);
  await page.getByRole('option', { name: 'Risk accepted', exact: true }).click();
  // The review date is required (prefilled, picked from tomorrow on); the reason too.
  await expect(panel.getByLabel('Risk accepted until')).toBeVisible();
  await panel.getByRole('button', { name: 'Apply' }).click();
  await expect(panel.getByText('Say why (required for this decision)')).toBeVisible();
  await panel.getByLabel('Risk accepted until').fill('2031-01-15');
  await page.keyboard.press('Escape');
  await panel.getByLabel('Justification').fill('Compensating control');
  await panel.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('group-done')).toContainText('3 of 3 findings changed');
  const after = await api.get<{ items: { status: string; risk_accepted_until: string }[] }>(
    `/api/v1/findings?project_id=${project.id}`,
  );
  expect(after.items.map((f) => [f.status, f.risk_accepted_until])).toEqual(
    Array(3).fill(['risk_accepted', new Date('2031-01-15T23:59:00').toISOString()]),
  );
  await screenshot(page, 'finding-group-panel');
});
