import {
  expect,
  expectAccessible,
  screenshot,
  seedFindings,
  signIn,
  test,
  webUrl,
} from './support/fixtures';

test('merge from the list selection with the survivor chosen; the survivor lists its members, a merged finding links its survivor; unmerge one and all', async ({
  page,
  api,
}) => {
  const { project } = await seedFindings(api);
  const all = await api.get<{ items: { id: string; title: string }[] }>(
    `/api/v1/findings?project_id=${project.id}&sort=severity&order=desc`,
  );
  expect(all.items).toHaveLength(3);
  const [survivor, member, third] = all.items;
  if (!survivor || !member || !third) throw new Error('three findings expected');

  await signIn(page);
  await page.goto(`${webUrl()}/findings?project_id=${project.id}&sort=severity&order=desc`);
  const rows = page.getByTestId('finding-row');
  await expect(rows).toHaveCount(3);
  await rows.nth(0).getByRole('checkbox').check();
  const bar = page.getByTestId('bulk-bar');
  // One finding cannot be merged with anything.
  await expect(bar.getByTestId('bulk-merge')).toBeDisabled();
  await rows.nth(1).getByRole('checkbox').check();
  await bar.getByRole('button', { name: 'Merge…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Merge 2 findings' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('merge-survivor-option')).toHaveCount(2);
  await expect(dialog.getByTestId('merge-submit')).toBeDisabled();
  await dialog.getByRole('radio', { name: survivor.title }).check();
  await expectAccessible(page, 'merge dialog');
  await screenshot(page, 'merge-dialog');
  await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
  await expect(page.getByTestId('bulk-result')).toContainText('1 findings merged');
  // The merged finding has left the list.
  await expect(rows).toHaveCount(2);
  await expect(page.getByText(member.title, { exact: true })).toHaveCount(0);

  // The survivor lists its member.
  await page.goto(`${webUrl()}/findings/${survivor.id}`);
  const members = page.getByTestId('merged-members');
  await expect(members.getByTestId('merged-member')).toHaveCount(1);
  await expect(members).toContainText(member.title);
  await expect(page.getByTestId('action').last()).toHaveAttribute('data-action', 'merged');
  await expectAccessible(page, 'survivor with merged findings');
  await screenshot(page, 'merge-survivor');

  // The merged finding still opens, with a banner that links its survivor.
  await members.getByRole('link', { name: member.title }).click();
  const banner = page.getByTestId('merged-banner');
  await expect(banner).toBeVisible();
  await expectAccessible(page, 'merged finding');
  await banner.getByRole('link', { name: 'Open the finding it was merged into' }).click();
  await expect(page).toHaveURL(new RegExp(`/findings/${survivor.id}$`));

  // Unmerge one member from the survivor's page: it is back in the list.
  await members.getByRole('button', { name: `Unmerge ${member.title}` }).click();
  await expect(page.getByTestId('merged-members')).toHaveCount(0);
  const back = await api.get<{ items: { id: string }[] }>(
    `/api/v1/findings?project_id=${project.id}`,
  );
  expect(back.items.map((f) => f.id).sort()).toEqual(all.items.map((f) => f.id).sort());

  // Merge two through the API, then "Unmerge all" on the survivor and the banner's own unmerge.
  await api.post('/api/v1/findings/merge', {
    survivor_id: survivor.id,
    finding_ids: [member.id, third.id],
  });
  await page.reload();
  await expect(page.getByTestId('merged-member')).toHaveCount(2);
  await page.getByRole('button', { name: 'Unmerge all' }).click();
  await expect(page.getByTestId('merged-members')).toHaveCount(0);

  await api.post('/api/v1/findings/merge', { survivor_id: survivor.id, finding_ids: [third.id] });
  await page.goto(`${webUrl()}/findings/${third.id}`);
  await page.getByTestId('merged-banner').getByRole('button', { name: 'Unmerge' }).click();
  await expect(page.getByTestId('merged-banner')).toHaveCount(0);
  const after = await api.get<{ merged_into_id: string | null }>(`/api/v1/findings/${third.id}`);
  expect(after.merged_into_id).toBeNull();
});

test('merge dialog in Russian; findings of two products cannot be merged', async ({
  page,
  api,
}) => {
  const first = await seedFindings(api);
  const second = await api.product(first.project.id, `prod-${Date.now()}`);
  await api.ingest(
    second.id,
    JSON.stringify({
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'semgrep', rules: [{ id: 'other-rule' }] } },
          results: [
            {
              ruleId: 'other-rule',
              level: 'error',
              message: { text: 'Other product problem' },
              locations: [
                {
                  physicalLocation: {
                    artifactLocation: { uri: 'src/other.ts' },
                    region: { startLine: 1 },
                  },
                },
              ],
            },
          ],
        },
      ],
    }),
  );
  await signIn(page);
  await page.goto(`${webUrl()}/findings?project_id=${first.project.id}&sort=severity&order=desc`);
  await page.getByText('Русский', { exact: true }).click();
  const rows = page.getByTestId('finding-row');
  await expect(rows).toHaveCount(4);
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await rows.nth(2).getByRole('checkbox').check();
  await rows.nth(3).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Объединить…' }).click();
  await expect(page.getByRole('dialog', { name: 'Объединить находки: 4' })).toBeVisible();
  const dialog = page.getByTestId('merge-dialog');
  await expect(dialog.getByTestId('merge-problem')).toContainText('одного продукта');
  await expect(dialog.getByTestId('merge-submit')).toBeDisabled();
  await expectAccessible(page, 'merge dialog refusing two products');
  await dialog.getByRole('button', { name: 'Отмена' }).first().click();
  await expect(dialog).toHaveCount(0);
  await page.getByText('English', { exact: true }).click();
});
