import {
  expect,
  expectAccessible,
  screenshot,
  seedFindings,
  signIn,
  test,
  webUrl,
} from './support/fixtures';

interface Item {
  id: string;
  rule_id: string;
}

test('suppression rules: one click from a finding pre-fills a rule, the preview counts it, a run suppresses it with progress, disable and delete release', async ({
  page,
  api,
}) => {
  const { project, product } = await seedFindings(api);
  const list = await api.get<{ items: Item[] }>(`/api/v1/findings?product_id=${product.id}`);
  const weak = list.items.find((f) => f.rule_id === 'weak-hash');
  expect(weak).toBeDefined();
  await signIn(page);

  // From the finding: "Suppress similar" opens the project's rules with a pre-filled rule.
  await page.goto(`${webUrl()}/findings/${weak?.id ?? ''}`);
  const panel = page.getByTestId('finding-suppression');
  await expect(panel).toContainText('No suppression rule matches this finding.');
  await panel.getByRole('button', { name: 'Suppress similar findings…' }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/suppression\\?`));
  const form = page.getByRole('form', { name: 'New rule' });
  await expect(form.getByRole('textbox', { name: 'Match' })).toHaveValue(
    'scanner:semgrep rule:weak-hash file_path:src/crypto.ts',
  );
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Similar to weak-hash');

  // The preview counts before anything is saved.
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByTestId('suppression-preview')).toHaveText(
    'Matches 1 findings of the project now (0 already suppressed).',
  );
  await expectAccessible(page, 'suppression rule form');
  await form.getByRole('textbox', { name: 'Reason' }).fill('MD5 used for cache keys only');
  await form.getByRole('button', { name: 'Save' }).click();
  const row = page.getByTestId('suppression-rule').filter({ hasText: 'Similar to weak-hash' });
  await expect(row).toContainText('Never run');
  await expect(row.getByTestId('suppressed-count')).toHaveText('0');

  // The run over the accumulated findings: progress, then the count.
  await row.getByRole('button', { name: 'Run on existing findings' }).click();
  await expect(row.getByTestId('suppression-run')).toContainText(
    'Completed · 3 of 3 checked, 1 suppressed',
  );
  await expect(row.getByTestId('suppressed-count')).toHaveText('1');
  await expectAccessible(page, 'suppression rules');
  await screenshot(page, 'suppression-rules');

  // The finding names its rule; the default list no longer shows it.
  await page.goto(`${webUrl()}/findings/${weak?.id ?? ''}`);
  await expect(panel).toContainText('Suppressed');
  await expect(panel.getByRole('link', { name: 'Similar to weak-hash' })).toBeVisible();
  const after = await api.get<{ items: Item[] }>(`/api/v1/findings?product_id=${product.id}`);
  expect(after.items.map((f) => f.rule_id).sort()).toEqual(['sql-injection', 'todo-comment']);

  // The list hides it by default; the "Suppressed" filter shows it alone or with the others,
  // and the choice is in the URL like the other filters.
  await page.goto(`${webUrl()}/findings?product_id=${product.id}`);
  const rows = page.getByTestId('finding-row');
  await expect(rows).toHaveCount(2);
  const suppressed = page.getByRole('combobox', { name: 'Suppressed' });
  await expect(suppressed).toHaveValue('Hide (default)');
  await suppressed.click();
  await page.getByRole('option', { name: 'Only suppressed', exact: true }).click();
  await expect(page).toHaveURL(/suppression=only/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('src/crypto.ts');
  await suppressed.click();
  await page.getByRole('option', { name: 'Include', exact: true }).click();
  await expect(page).toHaveURL(/suppression=include/);
  await expect(rows).toHaveCount(3);
  await expectAccessible(page, 'findings list with suppressed findings');
  await page.reload();
  await expect(suppressed).toHaveValue('Include');
  await expect(rows).toHaveCount(3);
  await suppressed.click();
  await page.getByRole('option', { name: 'Hide (default)', exact: true }).click();
  await expect(page).not.toHaveURL(/suppression=/);
  await expect(rows).toHaveCount(2);

  // The query mode has the same choice (the language has no term for it), kept in its link.
  const q = encodeURIComponent(`product:"${product.name}"`);
  await page.goto(`${webUrl()}/findings?mode=query&q=${q}`);
  await expect(rows).toHaveCount(2);
  await suppressed.click();
  await page.getByRole('option', { name: 'Only suppressed', exact: true }).click();
  await expect(page).toHaveURL(/mode=query.*suppression=only/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('src/crypto.ts');
  await expectAccessible(page, 'query mode with suppressed findings');

  // An invalid rule is refused with the API's message, in place.
  await page.goto(`${webUrl()}/projects/${project.id}/suppression`);
  await page.getByRole('button', { name: 'New rule' }).click();
  const fresh = page.getByRole('form', { name: 'New rule' });
  await fresh.getByRole('textbox', { name: 'Name' }).fill('everything');
  await fresh.getByRole('textbox', { name: 'Match' }).fill('-scanner:semgrep');
  await fresh.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('api-error')).toContainText('not valid at position');
  await fresh.getByRole('button', { name: 'Cancel' }).click();

  // The rule's history: who created and ran it, and how many findings the run suppressed.
  await row.getByRole('button', { name: 'History of rule "Similar to weak-hash"' }).click();
  const log = page.getByTestId('suppression-rule-log-entry');
  await expect(log).toHaveCount(3);
  await expect(log.nth(0)).toContainText('Created');
  await expect(log.nth(1)).toContainText('Run started');
  await expect(log.nth(2)).toContainText('Run completed');
  await expect(log.nth(2)).toContainText('findings suppressed: 1');
  await expectAccessible(page, 'suppression rule history');

  // Disabling releases the finding; deleting removes the rule.
  // The switch has no visible label (its name is aria-label): its thumb takes the pointer.
  const enabled = row.getByRole('switch', { name: 'Rule "Similar to weak-hash" enabled' });
  await enabled.click({ force: true });
  await expect(enabled).not.toBeChecked();
  await expect(row.getByTestId('suppressed-count')).toHaveText('0');
  await expect(log).toHaveCount(4);
  await expect(log.nth(3)).toContainText('Disabled');
  await expect(log.nth(3)).toContainText('findings released: 1');
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('suppression-empty')).toBeVisible();
  const restored = await api.get<{ items: Item[] }>(`/api/v1/findings?product_id=${product.id}`);
  expect(restored.items).toHaveLength(3);
});

test('suppression rules in Russian: the screen and the API’s refusal are translated', async ({
  page,
  api,
}) => {
  const { project } = await seedFindings(api);
  await signIn(page);
  await page.goto(`${webUrl()}/projects/${project.id}/suppression`);
  await page.getByText('Русский', { exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Правила подавления');
  await expect(page.getByRole('link', { name: 'Правила подавления' })).toBeVisible();
  await page.getByRole('button', { name: 'Новое правило' }).click();
  const form = page.getByRole('form', { name: 'Новое правило' });
  await form.getByRole('textbox', { name: 'Название' }).fill('шум');
  await form.getByRole('textbox', { name: 'Условие' }).fill('слово');
  await form.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByTestId('api-error')).toContainText('правило подавления некорректно');
  await expectAccessible(page, 'suppression rules (ru)');
  await page.goto(`${webUrl()}/findings?suppression=only`);
  await expect(page.getByRole('combobox', { name: 'Подавленные' })).toHaveValue(
    'Только подавленные',
  );
  await page.getByText('English', { exact: true }).click();
});
