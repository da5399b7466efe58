import {
  expect,
  expectAccessible,
  screenshot,
  seedFindings,
  signIn,
  sql,
  test,
} from './support/fixtures';

interface Violation {
  id: string;
  state: string;
  resolution: string | null;
  resolved_at: string | null;
  comment: string | null;
}

test('deadline violations: resolve one with a comment', async ({ page, api }) => {
  const { project } = await seedFindings(api);
  const { items } = await api.get<{ items: { id: string }[] }>(
    `/api/v1/findings?project_id=${project.id}&severity=HIGH`,
  );
  const findingId = items[0]?.id ?? '';
  expect(findingId).not.toBe('');
  // The deadline check runs hourly and the shortest deadline is a day: the open violation of
  // the finding is seeded as the check writes it (as the API's fuzz seed does).
  const [violation] = await sql<{ id: string }>(
    `INSERT INTO sla_violations (finding_id, project_id, product_id, severity, kind, due_at, opened_at)
     SELECT id, project_id, product_id, severity, 'breached', now() - interval '1 hour', now()
       FROM findings WHERE id = $1 RETURNING id`,
    [findingId],
  );
  const id = violation?.id ?? '';

  await signIn(page);
  await page.getByRole('link', { name: 'Deadlines' }).click();
  const row = page.getByTestId(`violation-${id}`);
  await expect(row.getByTestId('violation-state')).toHaveText('open');
  await expectAccessible(page, 'deadlines');
  await row.getByRole('textbox', { name: 'Resolution comment' }).fill('fixed in release 2.4');
  await row.getByRole('button', { name: 'Resolve' }).click();
  // Resolved: gone from the open list, shown as resolved by hand in all.
  await expect(row).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Open only' }).uncheck();
  await expect(row.getByTestId('violation-state')).toContainText('(manual)');
  await expect(row.getByRole('button', { name: 'Resolve' })).toHaveCount(0);
  const { items: all } = await api.get<{ items: Violation[] }>(
    `/api/v1/sla/violations?state=all&limit=100`,
  );
  expect(all.find((v) => v.id === id)).toMatchObject({
    resolution: 'manual',
    comment: 'fixed in release 2.4',
  });
  await screenshot(page, 'deadlines-resolved');
});
