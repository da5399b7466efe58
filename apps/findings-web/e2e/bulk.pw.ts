import { expect, screenshot, seedFindings, signIn, test, webUrl } from './support/fixtures';

test('bulk selection: tags added to the selected findings; bulk status offers no waiting', async ({
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

  await page.goto(`${webUrl()}/findings?project_id=${project.id}&tags=pci`);
  await expect(rows).toHaveCount(2);
});
