/**
 * Issue 25, an analyst's first day — one finding: what the scanner said (message links, the
 * snippet with its line numbers, sources as a table, the file at the commit in the repository),
 * decisions that carry their reason, the comment thread, people by name and the action log as
 * a history; refused forms with the server's reason per field, inline checks, old errors gone.
 */
import {
  expect as baseExpect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
} from './support/fixtures';
import { CODEQL_COMMIT, codeqlReport, secretScannerReport } from './support/scanner-reports';

// Ingestion and several page loads per test on a shared 2-core machine.
test.slow();
const expect = baseExpect.configure({ timeout: 45_000 });

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

interface Item {
  id: string;
  location: { file_path: string | null };
}

async function firstFinding(
  api: { get<T>(path: string): Promise<T> },
  productId: string,
): Promise<Item[]> {
  return (await api.get<{ items: Item[] }>(`/api/v1/findings?product_id=${productId}&limit=50`))
    .items;
}

test('the detail page shows what the scanner said: message links, numbered snippet, sources table, the file at the commit', async ({
  page,
  api,
}) => {
  const project = await api.project(unique('first-day'));
  const repository = 'https://git.example.test/acme/shop';
  const product = await api.product(project.id, unique('shop'), repository);
  await api.ingest(product.id, codeqlReport(1, repository), 'codeql.sarif');
  const [finding] = await firstFinding(api, product.id);
  await signIn(page);
  await page.goto(`${webUrl()}/findings/${finding?.id ?? ''}`);

  // The message's `[user-provided value](1)` is no markup on screen.
  const message = page.getByTestId('finding-message');
  await expect(message).toContainText('This query string depends on a user-provided value.');
  await expect(message).not.toContainText('](1)');
  // The snippet: numbered from the location's line, indentation and tab kept.
  await expect(page.getByTestId('snippet-number')).toHaveText(['42', '43']);
  const lines = await page
    .getByTestId('snippet-line')
    .locator('code')
    .evaluateAll((codes) => codes.map((c) => c.textContent ?? ''));
  expect(lines).toEqual([
    '  const name = req.query.name;',
    "\tdb.query(`SELECT * FROM users WHERE name = '${name}'`);",
  ]);
  // Sources read as a table: one row per field, one column per scanner.
  const sources = page.getByTestId('sources');
  await expect(sources.getByRole('columnheader', { name: 'CodeQL' })).toBeVisible();
  await expect(sources.getByRole('row', { name: /^Rule/ })).toContainText('js/sql-injection');
  // The location links to the file at the report's commit; the product shows its repository.
  await expect(page.getByTestId('location-link')).toHaveAttribute(
    'href',
    `${repository}/blob/${CODEQL_COMMIT}/src/routes/route-000.js#L42-L43`,
  );
  await expect(page.getByTestId('repository-url')).toHaveText(repository);
  await expect(page.getByTestId('finding-rule')).toContainText(
    'Database query built from user-controlled sources',
  );
  await expectAccessible(page, 'finding with snippet and sources');
  await screenshot(page, 'analyst-finding-scanner');

  await page.goto(`${webUrl()}/projects/${project.id}`);
  await expect(page.getByTestId('product-repository')).toContainText(repository);
});

test('decisions carry their reason, comments are a thread, people by name, the log reads as a history', async ({
  page,
  api,
}) => {
  const project = await api.project(unique('first-day'));
  const product = await api.product(project.id, unique('shop'));
  await api.ingest(
    product.id,
    secretScannerReport([
      { file: 'config/prod.env', line: 3 },
      { file: 'deploy/terraform.tfvars', line: 4 },
    ]),
    'gitleaks.sarif',
  );
  const email = `${unique('dana')}@findings-web.test`;
  const dana = await api.user(email, 'Dana Scully');
  await api.request.put(`${webUrl()}/api/v1/projects/${project.id}/members/${dana.id}`, {
    headers: api.authHeaders(),
    data: { role: 'analyst' },
  });
  const items = await firstFinding(api, product.id);
  const secret = items.find((f) => f.location.file_path === 'config/prod.env');
  const other = items.find((f) => f.location.file_path === 'deploy/terraform.tfvars');
  await signIn(page);
  await page.goto(`${webUrl()}/findings/${secret?.id ?? ''}`);

  // The history starts with the creation by the import.
  const log = page.getByTestId('action');
  await expect(log.first()).toHaveAttribute('data-action', 'created');

  // `renewed` is never offered; a risk acceptance needs a reason, checked before it is sent.
  const form = page.getByRole('form', { name: 'Change status' });
  await form.getByLabel('New status').click();
  await expect(page.getByRole('option', { name: 'Confirmed', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Renewed', exact: true })).toHaveCount(0);
  await page.getByRole('option', { name: 'Risk accepted', exact: true }).click();
  // The review date in the UI's one format (en-GB: day/month/year).
  await expect(form.getByRole('textbox', { name: 'Risk accepted until' })).toHaveValue(
    /^\d{2}\/\d{2}\/\d{4}$/,
  );
  let patches = 0;
  page.on('request', (r) => {
    if (r.method() === 'PATCH' && r.url().includes('/api/v1/findings/')) patches++;
  });
  await form.getByRole('button', { name: 'Change status' }).click();
  await expect(form.getByText('Say why (required for this decision)')).toBeVisible();
  expect(patches).toBe(0);
  await form
    .getByLabel('Justification')
    .fill('Test credentials of the sandbox account, rotated weekly');
  await form.getByRole('button', { name: 'Change status' }).click();
  const decision = page.getByTestId('status-decision');
  await expect(decision.getByTestId('risk-accepted-until')).toContainText(
    /Risk accepted until \d{2}\/\d{2}\/\d{4}/,
  );
  await expect(decision.getByTestId('decision-by')).toContainText('admin@findings-web.test');
  await expect(decision.getByTestId('decision-justification')).toContainText(
    'Test credentials of the sandbox account',
  );
  await expect(log.filter({ hasText: 'Test credentials of the sandbox account' })).toHaveCount(1);

  // Comments: a thread with author and time, oldest first.
  const comments = page.getByTestId('comments');
  await comments.getByRole('button', { name: 'Add comment' }).click();
  await expect(comments.getByText('Required')).toBeVisible();
  await comments.getByLabel('New comment').fill('Key found in the prod env file.');
  await comments.getByRole('button', { name: 'Add comment' }).click();
  await expect(comments.getByTestId('comment')).toHaveCount(1);
  await comments.getByLabel('New comment').fill('Rotation ticket SEC-4711 opened.');
  await comments.getByRole('button', { name: 'Add comment' }).click();
  await expect(comments.getByTestId('comment-body')).toHaveText([
    'Key found in the prod env file.',
    'Rotation ticket SEC-4711 opened.',
  ]);
  await expect(comments.getByTestId('comment-meta').first()).toContainText(
    /admin@findings-web\.test.*\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/,
  );

  // Assignment by name: typed, found, chosen; the log names the person, never a UUID.
  const picker = page.getByTestId('assignee-picker');
  await picker.click();
  await picker.fill('Dana');
  await page.getByRole('option', { name: `Dana Scully <${email}>` }).click();
  await expect(log.filter({ has: page.locator('[data-field="assignee"]') })).toContainText(
    `Dana Scully (${email})`,
  );
  await expect(page.getByTestId('action-log')).not.toContainText(UUID);
  await expectAccessible(page, 'finding with decision, comments and history');
  await screenshot(page, 'analyst-finding-decision');

  // A change that changes nothing writes no entry.
  const entries = async () =>
    (await api.get<unknown[]>(`/api/v1/findings/${secret?.id ?? ''}/actions?limit=1000`)).length;
  const before = await entries();
  await api.patch(`/api/v1/findings/${secret?.id ?? ''}`, { assignee_id: dana.id });
  expect(await entries()).toBe(before);

  // Bulk: false positive needs one reason for the selection, stored for each finding.
  await page.goto(`${webUrl()}/findings?product_id=${product.id}`);
  const row = page.getByTestId('finding-row').filter({ hasText: 'deploy/terraform.tfvars' });
  await row.getByRole('checkbox').check();
  const bulk = page.getByTestId('bulk-bar');
  await bulk.getByLabel('Status for the selection').click();
  await page.getByRole('option', { name: 'False positive', exact: true }).click();
  await bulk.getByRole('button', { name: 'Apply' }).click();
  await expect(bulk.getByText('Say why (required for this decision)')).toBeVisible();
  await bulk.getByLabel('Justification').fill('Example value from the documentation');
  await bulk.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('bulk-result')).toBeVisible();
  const changed = await api.get<{
    status: string;
    status_decision: { justification: string | null } | null;
  }>(`/api/v1/findings/${other?.id ?? ''}`);
  expect(changed.status).toBe('false_positive');
  expect(changed.status_decision?.justification).toBe('Example value from the documentation');
});

test('refused forms show the reason for each field, in the UI language; old errors clear; checks are inline', async ({
  page,
  api,
}) => {
  const project = await api.project(unique('first-day'));
  const product = await api.product(project.id, unique('shop'));
  await api.ingest(product.id, secretScannerReport([{ file: 'a.env', line: 1 }]), 'gitleaks.sarif');
  const [finding] = await firstFinding(api, product.id);
  await signIn(page);
  await page.goto(`${webUrl()}/findings/${finding?.id ?? ''}`);
  const tagInput = page.getByRole('textbox', { name: 'New tag' });
  const addTag = page.getByRole('button', { name: 'Add', exact: true });

  // Empty: the UI's own message under the field, no browser tooltip, nothing sent.
  await addTag.click();
  await expect(page.getByText('Required', { exact: true })).toBeVisible();
  expect(await tagInput.evaluate((el) => (el as HTMLInputElement).validationMessage)).toBe('');

  await tagInput.fill('Reviewed-2026');
  await addTag.click();
  const manual = page.getByTestId('manual-tags');
  // Tags display as stored (no case change on screen).
  await expect(manual.getByTestId('tag')).toHaveCount(1);
  const stored = await api.get<{ tags: string[] }>(`/api/v1/findings/${finding?.id ?? ''}`);
  await expect(manual.getByTestId('tag-name')).toHaveText(stored.tags, { useInnerText: true });

  // A refused tag: the server's reason for the field, named in the UI language.
  await tagInput.fill('bad tag!');
  await addTag.click();
  const problems = page.getByTestId('field-problems');
  await expect(problems.locator('[data-field="tags"]')).toContainText(
    'Tags: "bad tag!": letters, digits and . _ : / = + @ - only',
  );
  // The next try succeeds (another action): the old error box goes.
  await manual.getByRole('button', { name: `Remove ${stored.tags[0] ?? ''}` }).click();
  await expect(manual.getByTestId('tag')).toHaveCount(0);
  await expect(page.getByTestId('api-error')).toHaveCount(0);

  // Russian: the field's name and the server's reason in Russian.
  await page.getByText('Русский', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Новый тег' }).fill('bad tag!');
  await page.getByRole('button', { name: 'Добавить', exact: true }).click();
  await expect(problems.locator('[data-field="tags"]')).toContainText(
    /^Теги: "bad tag!": .*[а-яА-Я]{4,}/,
  );
  await page.getByText('English', { exact: true }).click();
});
