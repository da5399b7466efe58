/**
 * Issue 25, an analyst's first day — around the list: the total, groups by rule and file, the
 * CSV export, project counts, uploads and jobs that explain themselves, dashboards and
 * deadlines that mean what they say, Russian, long text, compressed assets.
 */
import { readFileSync } from 'node:fs';
import {
  expect as baseExpect,
  expectAccessible,
  screenshot,
  signIn,
  sql,
  test,
  unique,
  webUrl,
} from './support/fixtures';
import {
  codeqlReport,
  dependencyScannerReport,
  secretScannerReport,
} from './support/scanner-reports';

test.slow();
const expect = baseExpect.configure({ timeout: 45_000 });

test('the total, groups by rule and file, the CSV export of the current list, counts per project', async ({
  page,
  api,
}) => {
  const project = await api.project(unique('first-day'));
  const product = await api.product(project.id, unique('shop'));
  await api.ingest(product.id, codeqlReport(12), 'codeql.sarif');
  await api.ingest(product.id, dependencyScannerReport(), 'depscan.sarif');
  await signIn(page);
  await page.goto(`${webUrl()}/findings?product_id=${product.id}`);
  await expect(page.getByTestId('findings-total')).toHaveText('15 findings');

  // Grouped by rule, with counts; a group opens its findings.
  await page.getByText('By rule', { exact: true }).click();
  await expect(page).toHaveURL(/group_by=rule/);
  const groups = page.getByTestId('finding-group');
  await expect(groups).toHaveCount(4);
  const sqlGroup = groups.filter({ hasText: 'js/sql-injection' });
  await expect(sqlGroup.getByTestId('group-count')).toHaveText('12');
  await expect(sqlGroup).toContainText('Database query built from user-controlled sources');
  await expectAccessible(page, 'findings grouped by rule');
  await sqlGroup.getByRole('button').click();
  await expect(page).toHaveURL(/rule_id=js%2Fsql-injection/);
  await expect(page.getByTestId('findings-total')).toHaveText('12 findings');
  await expect(page.getByTestId('linked-filter-rule_id')).toContainText('js/sql-injection');

  // The export is the current list: the rule's 12 findings, downloaded by the browser itself
  // through a single-use link (no bearer token on the request, nothing buffered in the page).
  // (A browser download is no page request: Playwright shows its URL, not its headers.)
  const download = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const downloaded = new URL((await download).url());
  expect(downloaded.pathname).toBe('/api/v1/findings/export.csv');
  expect(downloaded.searchParams.get('download_token')).toMatch(/^dl_/);
  expect(downloaded.searchParams.get('rule_id')).toBe('js/sql-injection');
  expect((await download).suggestedFilename()).toBe('findings.csv');
  const file = await (await download).path();
  const csv = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const rows = csv.trim().split('\r\n');
  expect(rows[0]).toMatch(/^id,project,product,severity,status,rule_id,rule_title,title,location/);
  expect(rows).toHaveLength(13);
  expect(rows.slice(1).every((r) => r.includes('js/sql-injection'))).toBe(true);

  // By file: one group per manifest or source file.
  await page.getByTestId('linked-filter-rule_id').getByRole('button').click();
  await page.getByText('By file', { exact: true }).click();
  await expect(
    groups.filter({ hasText: 'services/orders/pom.xml' }).getByTestId('group-count'),
  ).toHaveText('3');

  // Finding counts per project.
  await page.goto(`${webUrl()}/projects`);
  const projectRow = page.getByTestId('project-row').filter({ hasText: project.name });
  await expect(projectRow.getByTestId('project-counts')).toContainText('15 findings, 15 open');
  await expect(projectRow.getByTestId('project-counts')).toContainText('Critical: 3');
});

test('an upload says how many results were duplicates and links to its findings; a job row explains itself; no retry for a structure error', async ({
  page,
  api,
}) => {
  const project = await api.project(unique('first-day'));
  const productName = unique('shop');
  await api.product(project.id, productName);
  await signIn(page);
  await page.goto(`${webUrl()}/projects/${project.id}`);
  const product = page.getByTestId('product').filter({ hasText: productName });
  // The same secret reported twice in one report: one finding, one duplicate.
  const report = secretScannerReport([
    { file: 'config/prod.env', line: 3 },
    { file: 'config/prod.env', line: 3 },
    { file: 'deploy/terraform.tfvars', line: 4 },
  ]);
  await product.locator('input[type=file]').setInputFiles({
    name: 'gitleaks-report.sarif',
    mimeType: 'application/json',
    buffer: Buffer.from(report),
  });
  await product.getByRole('button', { name: 'Upload a report' }).click();
  const state = product.getByTestId('report-state');
  await expect(state).toHaveAttribute('data-state', 'completed', { timeout: 90_000 });
  await expect(product.getByTestId('report-counts')).toContainText(
    '3 results: 2 new, 0 updated, 0 renewed, 1 duplicates within the report',
  );
  await expectAccessible(page, 'project with an upload result');
  await product.getByTestId('report-findings').click();
  await expect(page).toHaveURL(/last_report_id=/);
  await expect(page.getByTestId('finding-row')).toHaveCount(2);

  // A report that can never be read: its reason, and no retry.
  await page.goto(`${webUrl()}/projects/${project.id}`);
  await product.locator('input[type=file]').setInputFiles({
    name: 'not-sarif.sarif',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ version: '2.1.0', runs: 'none' })),
  });
  await product.getByRole('button', { name: 'Upload a report' }).click();
  await expect(state).toHaveAttribute('data-state', 'failed', { timeout: 90_000 });

  await page.getByRole('link', { name: 'Jobs' }).click();
  const done = page.getByTestId(/^job-/).filter({ hasText: 'gitleaks-report.sarif' });
  await expect(done.getByTestId('job-where')).toContainText(`${project.name} / ${productName}`);
  await expect(done.getByTestId('job-counts')).toContainText(
    '3 results: 2 new, 0 updated, 1 duplicates',
  );
  await expect(done.getByTestId('job-duration')).toHaveText(/\d+(\.\d)? (ms|s)|\d+ min \d+ s/);
  const failed = page.getByTestId(/^job-/).filter({ hasText: 'not-sarif.sarif' });
  await expect(failed.getByTestId('job-state')).toHaveAttribute('data-state', 'failed');
  await expect(failed.getByTestId('job-failure')).toContainText(/report_\w+/);
  await expect(failed.getByTestId('job-failure')).toContainText(/[a-z]{3,} [a-z]{3,}/);
  await expect(failed.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expectAccessible(page, 'jobs');
  await screenshot(page, 'analyst-jobs');
});

test('dashboards: percentages on a percentage axis, a project filter, an empty trend says so, the period is checked before it is sent; deadlines: due soon', async ({
  page,
  api,
}) => {
  const empty = await api.project(unique('quiet'));
  // One fix within its deadline, so there is a compliance figure to draw.
  const fixedProject = await api.project(unique('fixed'));
  const fixedProduct = await api.product(fixedProject.id, unique('shop'));
  await api.ingest(fixedProduct.id, codeqlReport(1), 'codeql.sarif');
  const [toFix] = (
    await api.get<{ items: { id: string }[] }>(`/api/v1/findings?product_id=${fixedProduct.id}`)
  ).items;
  await api.patch(`/api/v1/findings/${toFix?.id ?? ''}`, { status: 'in_progress' });
  await api.patch(`/api/v1/findings/${toFix?.id ?? ''}`, { status: 'fixed' });
  await signIn(page);
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/dashboard/')) sent.push(r.url());
  });
  await page.goto(`${webUrl()}/dashboards`);
  const compliance = page.getByTestId('compliance-chart');
  await expect(compliance).toContainText('100 %');
  await expect(compliance).toContainText('50 %');

  const period = page.getByRole('textbox', { name: 'Period (days)' });
  for (const wrong of ['0', '366', '7.5']) {
    await period.fill(wrong);
    await expect(page.getByText('A whole number from 1 to 365')).toBeVisible();
  }
  await page.waitForTimeout(500);
  expect(sent.filter((u) => /days=(0|366|7\.5)\b/.test(u))).toEqual([]);
  await period.fill('7');
  await expect(page.getByText('A whole number from 1 to 365')).toHaveCount(0);
  await expect.poll(() => sent.some((u) => u.includes('days=7'))).toBe(true);

  // One project: nothing happened there, and the trend says so.
  await page.getByTestId('dash-project').click();
  await page.getByTestId('dash-project').fill(empty.name);
  await page.getByRole('option', { name: empty.name }).click();
  await expect.poll(() => sent.some((u) => u.includes(`project_id=${empty.id}`))).toBe(true);
  await expect(page.getByTestId('trend-empty')).toContainText(
    'Nothing happened in the last 7 days',
  );
  await expectAccessible(page, 'dashboards');

  // Deadlines: the due-soon list next to the violations, with its empty state.
  await page.getByRole('link', { name: 'Deadlines' }).click();
  const dueSoon = page.getByTestId('due-soon');
  const project = await api.project(unique('due'));
  const product = await api.product(project.id, unique('shop'));
  await api.ingest(product.id, secretScannerReport([{ file: 'due.env', line: 2 }]), 'g.sarif');
  const [finding] = (
    await api.get<{ items: { id: string }[] }>(`/api/v1/findings?product_id=${product.id}`)
  ).items;
  const open = await api.get<{ items: unknown[] }>(
    '/api/v1/sla/violations?state=open&kind=approaching&limit=1',
  );
  if (open.items.length === 0) await expect(dueSoon.getByTestId('due-soon-empty')).toBeVisible();
  // The hourly check writes an approaching violation; seeded here as it writes it.
  await sql(
    `INSERT INTO sla_violations (finding_id, project_id, product_id, severity, kind, due_at, opened_at)
     SELECT id, project_id, product_id, severity, 'approaching', now() + interval '20 hours', now()
       FROM findings WHERE id = $1`,
    [finding?.id ?? ''],
  );
  await page.reload();
  await expect(dueSoon.getByTestId(`due-soon-${finding?.id ?? ''}`)).toBeVisible();
  await expect(dueSoon.getByTestId('due-soon-empty')).toHaveCount(0);
  await expectAccessible(page, 'deadlines with due soon');
});

test('polish: Russian severities, jobs and units; long text wraps; tags as stored; assets compressed', async ({
  page,
  api,
}) => {
  const long = 'x'.repeat(4000);
  const project = await api.project(unique('wide'), long);
  const product = await api.product(project.id, unique('shop'));
  await api.ingest(product.id, codeqlReport(2), 'codeql.sarif');
  const [finding] = (
    await api.get<{ items: { id: string }[] }>(`/api/v1/findings?product_id=${product.id}`)
  ).items;
  await api.post(`/api/v1/findings/${finding?.id ?? ''}/tags`, { tags: ['PCI-DSS', 'CamelCase'] });

  const assets: { url: string; encoding: string | undefined }[] = [];
  page.on('response', (r) => {
    if (/\/assets\/.+\.(js|css)$/.test(r.url()))
      assets.push({ url: r.url(), encoding: r.headers()['content-encoding'] });
  });
  await signIn(page);
  // Static assets are served compressed.
  expect(assets.length).toBeGreaterThan(0);
  expect(assets.filter((a) => a.encoding !== 'br')).toEqual([]);

  // Long unbroken text wraps instead of widening the page.
  for (const path of ['/projects', `/projects/${project.id}`]) {
    await page.goto(`${webUrl()}${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(project.name).first()).toBeVisible();
    const width = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(width.page, path).toBeLessThanOrEqual(width.viewport);
  }

  // Tags as stored.
  await page.goto(`${webUrl()}/findings/${finding?.id ?? ''}`);
  const stored = await api.get<{ tags: string[] }>(`/api/v1/findings/${finding?.id ?? ''}`);
  expect(stored.tags).toHaveLength(2);
  await expect(page.getByTestId('manual-tags').getByTestId('tag-name')).toHaveText(stored.tags, {
    useInnerText: true,
  });

  // Russian: severities, units, the jobs page.
  await page.getByText('Русский', { exact: true }).click();
  await page.goto(`${webUrl()}/findings?product_id=${product.id}`);
  await expect(page.getByTestId('finding-row').first().locator('[data-severity]')).toHaveText(
    'Высокая',
  );
  await expect(page.getByTestId('finding-row').first()).toContainText(
    /\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/,
  );
  await page.getByRole('link', { name: 'Задания' }).click();
  await expect(page.getByTestId('job-state').first()).toHaveText(
    /завершено|ошибка|в очереди|выполняется|отложено/,
  );
  await expect(page.getByTestId('job-duration').first()).toHaveText(/(мс|с)$|—/);
  await page.getByText('English', { exact: true }).click();
});
