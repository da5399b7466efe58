import { expect, screenshot, seedFindings, signIn, test, webUrl } from './support/fixtures';

test('bulk selection: tags added to the selected findings; bulk status offers no waiting; a bulk risk acceptance holds through the picked day', async ({
  page,
  api,
}) => {
  const { project } = await seedFindings(api);
  await signIn(page);
  await page.goto(`${webUrl()}/findings?project_id=${project.id}&sort=severity&order=desc`);
  const rows = page.getByTestId('finding-row');
  await expect(rows).toHaveCount(3);
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  const bar = page.getByTestId('bulk-bar');
  await expect(bar).toContainText('2 selected');

  await bar.getByLabel('Status for the selection').click();
  await expect(page.getByRole('option', { name: 'In progress', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Waiting', exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await bar.getByRole('textbox', { name: 'Add tags' }).fill('pci, team-web');
  await bar.getByRole('button', { name: 'Tags for the selection' }).click();
  await expect(page.getByTestId('bulk-result')).toContainText('2 of 2 findings changed');
  await screenshot(page, 'bulk-tagged');

  // Risk acceptance for the selection: the review day is required and held through its end,
  // as in the single-finding form. (A finished bulk action clears the selection: select again.)
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await bar.getByLabel('Status for the selection').click();
  await page.getByRole('option', { name: 'Risk accepted', exact: true }).click();
  await bar.getByLabel('Risk accepted until').fill('2027-01-15');
  // A risk acceptance carries its reason (issue 25).
  await bar.getByLabel('Justification').fill('Compensating control: WAF rule 4711');
  await bar.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('bulk-result')).toContainText('2 of 2 findings changed');
  // (The tags' result reads the same, so the line above can pass before this change is done:
  // the findings are read until they show it — seen once with both UIs' suites side by side.)
  await expect
    .poll(async () => {
      const accepted = await api.get<{ items: { status: string; risk_accepted_until: string }[] }>(
        `/api/v1/findings?project_id=${project.id}&tags=pci`,
      );
      return accepted.items.map((f) => [f.status, f.risk_accepted_until]);
    })
    .toEqual([
      ['risk_accepted', new Date('2027-01-15T23:59:00').toISOString()],
      ['risk_accepted', new Date('2027-01-15T23:59:00').toISOString()],
    ]);

  await page.goto(`${webUrl()}/findings?project_id=${project.id}&tags=pci`);
  await expect(rows).toHaveCount(2);
});
