/**
 * Issue 25, an analyst's first day — the findings list: rows that can be told apart, the
 * severity of level-less SARIF results, keys without a click, and "Back to the list" returning
 * to the same place. Reports are written here in the shapes of a secret scanner, a CodeQL-style
 * scanner, a dependency scanner and a network scanner.
 */
import type { Locator, Page } from '@playwright/test';
import {
  expect as baseExpect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
} from './support/fixtures';
import {
  codeqlReport,
  dependencyScannerReport,
  networkScannerReport,
  secretScannerReport,
} from './support/scanner-reports';

// Four reports ingested per test on a shared 2-core machine, where one page load can take
// half a minute when the machine is busy.
test.slow();
const expect = baseExpect.configure({ timeout: 45_000 });

const rowOf = (page: Page, text: string) =>
  page.getByTestId('finding-row').filter({ hasText: text });

async function columnWidths(page: Page): Promise<number[]> {
  return page
    .getByTestId('findings-grid')
    .locator('thead th')
    .evaluateAll((cells) => cells.map((c) => Math.round(c.getBoundingClientRect().width)));
}

/** Every badge of `scope` shows its whole label: nothing cut, nothing outside its cell. */
async function expectBadgesWhole(scope: Locator) {
  const badges = scope.locator('.badge, .mantine-Badge-root');
  // Waits for them: after a sort the grid is drawn again from the new answer, and an instant
  // count could fall between the old rows and the new ones (seen once at load 7-11).
  await expect(badges.first(), 'badges on screen').toBeVisible();
  const cut = await badges.evaluateAll((all) =>
    all
      .filter((badge) => {
        const label = badge.querySelector('.mantine-Badge-label') ?? badge;
        const cell = badge.closest('td, th');
        const box = badge.getBoundingClientRect();
        const outside = cell ? box.right > cell.getBoundingClientRect().right + 0.5 : false;
        return label.scrollWidth > label.clientWidth + 0.5 || outside;
      })
      .map((badge) => badge.textContent ?? ''),
  );
  expect(cut, 'badges cut or overflowing their cell').toEqual([]);
}

test('rows told apart: location and rule columns, level-less secrets are MEDIUM with their rule, badges whole, stable widths, aria-sort, sticky header, keys without a click', async ({
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
  await api.ingest(product.id, codeqlReport(40), 'codeql.sarif');
  await api.ingest(product.id, dependencyScannerReport(), 'depscan.sarif');
  await api.ingest(
    product.id,
    networkScannerReport('bastion.corp.example.test', '10.20.0.15', 22),
    'netaudit.sarif',
  );
  await page.setViewportSize({ width: 1100, height: 800 });
  await signIn(page);
  const rows = page.getByTestId('finding-row');
  const list = async (scanner: string) => {
    await page.goto(`${webUrl()}/findings?product_id=${product.id}&scanner=${scanner}`);
    await expect(rows.first()).toBeVisible();
  };

  // Where: file:line for code, package@version and its manifest for dependencies, host:port.
  await list('gitleaks');
  const secret = rowOf(page, 'config/prod.env');
  await expect(secret.getByTestId('finding-location')).toHaveText('config/prod.env:3');
  // Item 2: gitleaks writes no level; the effective level is warning → MEDIUM, rule named.
  await expect(secret.locator('[data-severity]')).toHaveAttribute('data-severity', 'MEDIUM');
  await expect(secret.getByTestId('finding-rule')).toContainText('aws-access-token');
  await expect(secret.getByTestId('finding-rule')).not.toContainText('unknown');
  await list('DepScan');
  const log4j = page
    .getByTestId('finding-row')
    .filter({ has: page.getByTestId('finding-location').getByText('log4j-core@2.14.1') });
  await expect(log4j).toHaveCount(2);
  const log4jRules = await log4j.getByTestId('finding-rule').allTextContents();
  expect(log4jRules.map((r) => r.replace(/ ·.*/, '')).sort()).toEqual([
    'CVE-2021-44228',
    'CVE-2021-45046',
  ]);
  await expect(log4j.first().getByTestId('finding-location')).toContainText(
    'services/orders/pom.xml:1',
  );
  await list('NetAudit');
  await expect(rows.getByTestId('finding-location')).toHaveText('bastion.corp.example.test:22');
  await list('CodeQL');
  // The rule column is the rule, not the scanner's message.
  const sqlRule = rowOf(page, 'route-039.js').getByTestId('finding-rule');
  await expect(sqlRule).toContainText('js/sql-injection');
  await expect(sqlRule).not.toContainText('depends on');
  await expect(rowOf(page, 'route-039.js').getByTestId('finding-location')).toHaveText(
    'src/routes/route-039.js:42-43',
  );

  await page.goto(`${webUrl()}/findings?product_id=${product.id}`);
  await expect(rows.first()).toBeVisible();
  // Sortable headers say how they sort; badges are never cut; widths stay across sorts.
  const grid = page.getByTestId('findings-grid');
  const severityHeader = grid.locator('th', { hasText: 'Severity' });
  const statusHeader = grid.locator('th', { hasText: 'Status' });
  await expect(severityHeader).toHaveAttribute('aria-sort', 'none');
  await expect(statusHeader).toHaveAttribute('aria-sort', 'none');
  await expectBadgesWhole(grid);
  const before = await columnWidths(page);
  await severityHeader.getByRole('button').click();
  await expect(page).toHaveURL(/sort=severity/);
  await expect(severityHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.first().locator('[data-severity]')).toHaveAttribute(
    'data-severity',
    'CRITICAL',
  );
  expect(await columnWidths(page)).toEqual(before);
  await statusHeader.getByRole('button').click();
  await expect(page).toHaveURL(/sort=status/);
  await expect(statusHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(severityHeader).toHaveAttribute('aria-sort', 'none');
  expect(await columnWidths(page)).toEqual(before);
  await expectBadgesWhole(grid);

  // Keys work without first clicking into the table (focus is on the page).
  await page.locator('body').evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('j');
  await expect(rows.nth(1)).toHaveAttribute('data-active', 'true');
  // Down past the fold, then back up: the sticky header never covers the active row.
  for (let i = 0; i < 30; i++) await page.keyboard.press('j');
  for (let i = 0; i < 20; i++) await page.keyboard.press('k');
  const active = page.locator('[data-testid="finding-row"][data-active="true"]');
  await expect(active).toHaveCount(1);
  await expect
    .poll(async () => {
      const head = await grid.locator('thead').boundingBox();
      const row = await active.boundingBox();
      return head && row ? Math.round(row.y - (head.y + head.height)) : -999;
    })
    .toBeGreaterThanOrEqual(-1);
  await expectAccessible(page, 'findings list with four scanners');
  await screenshot(page, 'analyst-list');
});

test('"Back to the list" returns to the same filters, sort and scroll position', async ({
  page,
  api,
}) => {
  const project = await api.project(unique('first-day'));
  const product = await api.product(project.id, unique('shop'));
  await api.ingest(product.id, codeqlReport(150), 'codeql.sarif');
  await api.ingest(product.id, dependencyScannerReport(), 'depscan.sarif');
  await signIn(page);
  const listUrl = `${webUrl()}/findings?product_id=${product.id}&sort=severity&order=asc`;
  await page.goto(listUrl);
  const grid = page.getByTestId('findings-grid');
  await expect(page.getByTestId('finding-row').first()).toBeVisible();
  // Scroll well into the second page of rows (100 a page): to the end, then back to 3600 px.
  await expect(async () => {
    await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(page.getByText('153 loaded')).toBeVisible({ timeout: 1000 });
  }).toPass();
  await grid.evaluate((el) => el.scrollTo({ top: 3600 }));
  await expect.poll(() => grid.evaluate((el) => Math.round(el.scrollTop))).toBe(3600);
  // A row in the middle of what is on screen.
  const targetLocation = await grid.evaluate((el) => {
    const middle = el.getBoundingClientRect().top + el.clientHeight / 2;
    const row = [...el.querySelectorAll('[data-testid="finding-row"]')].find((r) => {
      const box = r.getBoundingClientRect();
      return box.top <= middle && box.bottom >= middle;
    });
    return row?.querySelector('[data-testid="finding-location"]')?.textContent ?? '';
  });
  expect(targetLocation).toMatch(/^src\/routes\/route-\d+\.js:42-43$/);
  const target = page.getByTestId('finding-row').filter({ hasText: targetLocation });
  await target.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('location')).toContainText(targetLocation);

  await page.getByTestId('back-to-list').click();
  await expect(page).toHaveURL(listUrl);
  await expect(grid).toBeVisible();
  await expect.poll(() => grid.evaluate((el) => Math.round(el.scrollTop))).toBe(3600);
  await expect(
    page.getByTestId('finding-row').filter({ hasText: targetLocation }),
  ).toBeInViewport();
  // The browser's back button too.
  await page
    .getByTestId('finding-row')
    .filter({ hasText: targetLocation })
    .getByRole('link')
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(listUrl);
  await expect.poll(() => grid.evaluate((el) => Math.round(el.scrollTop))).toBe(3600);
});
