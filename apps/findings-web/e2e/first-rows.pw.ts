/**
 * Issue 25, an analyst's first day — the list's first rows come first: the session refresh
 * starts before the bundle runs (public/session-boot.js) and is used once, the list is asked
 * for as soon as the session is back, and the filter or query bar mounts after the rows are
 * drawn, in the place its placeholder kept (the grid never moves).
 */
import type { Page } from '@playwright/test';
import { expect, signIn, test, unique, webUrl } from './support/fixtures';
import { codeqlReport } from './support/scanner-reports';

/**
 * In every animation frame until `__stopWatch`: the grid's top, whether rows are drawn and
 * whether the bar's placeholder is still there.
 */
const WATCH_GRID = `(() => {
  const frames = (window.__gridFrames = []);
  const watch = () => {
    const grid = document.querySelector('[data-testid="findings-grid"]');
    if (grid) {
      frames.push({
        top: Math.round(grid.getBoundingClientRect().top),
        rows: grid.querySelectorAll('[data-testid="finding-row"]').length,
        placeholder: document.querySelector('.bar-placeholder') !== null,
      });
    }
    if (!window.__stopWatch) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
})();`;

interface Frame {
  top: number;
  rows: number;
  placeholder: boolean;
}

async function framesOfLoad(page: Page, url: string, barReady: () => Promise<void>) {
  await page.goto(url);
  await expect(page.getByTestId('finding-row').first()).toBeVisible();
  await barReady();
  return page.evaluate(() => {
    const w = window as unknown as { __gridFrames: Frame[]; __stopWatch: boolean };
    w.__stopWatch = true;
    return w.__gridFrames;
  });
}

test('rows first: the grid is drawn while the bar is a placeholder, and the bar takes its place without moving the grid', async ({
  page,
  api,
}) => {
  const project = await api.project(unique('rows-first'));
  const productName = unique('shop');
  const product = await api.product(project.id, productName);
  await api.ingest(product.id, codeqlReport(30), 'codeql.sarif');
  await signIn(page);
  await page.addInitScript(WATCH_GRID);

  for (const width of [1100, 1400, 1920]) {
    await page.setViewportSize({ width, height: 800 });
    for (const mode of ['filters', 'query'] as const) {
      const url =
        mode === 'filters'
          ? `${webUrl()}/findings?product_id=${product.id}`
          : `${webUrl()}/findings?mode=query&q=${encodeURIComponent(`product:${productName}`)}`;
      const frames = await framesOfLoad(page, url, async () => {
        const field =
          mode === 'filters'
            ? page.getByRole('textbox', { name: 'Scanner' })
            : page.getByRole('textbox', { name: 'Query' });
        await expect(field).toBeVisible();
        // A frame with the real bar drawn.
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(done)));
      });
      const label = `${mode} at ${width} px`;
      const drawnEarly = frames.filter((f) => f.rows > 0 && f.placeholder);
      const withBar = frames.filter((f) => f.rows > 0 && !f.placeholder);
      expect(drawnEarly.length, `${label}: rows drawn before the bar`).toBeGreaterThan(0);
      expect(withBar.length, `${label}: frames with the bar`).toBeGreaterThan(0);
      const tops = new Set(frames.filter((f) => f.rows > 0).map((f) => f.top));
      expect([...tops], `${label}: the grid's top in every frame with rows`).toHaveLength(1);
    }
  }
});

test('a full load refreshes the session once (the boot request is used) and asks for the list once', async ({
  page,
  api,
}) => {
  const project = await api.project(unique('one-refresh'));
  const product = await api.product(project.id, unique('shop'));
  await api.ingest(product.id, codeqlReport(5), 'codeql.sarif');
  await signIn(page);
  const refreshes: string[] = [];
  const lists: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === '/api/v1/auth/token/refresh') refreshes.push(request.url());
    if (path === '/api/v1/findings') lists.push(request.url());
  });
  for (let round = 0; round < 3; round++) {
    refreshes.length = 0;
    lists.length = 0;
    await page.goto(`${webUrl()}/findings?product_id=${product.id}`);
    await expect(page.getByTestId('finding-row')).toHaveCount(5);
    await expect(page.getByTestId('current-user')).toBeVisible();
    // Rotated once per load: a second refresh would reuse a rotated token and end the session.
    expect(refreshes, `round ${round}: refresh requests`).toHaveLength(1);
    expect(lists, `round ${round}: list requests`).toHaveLength(1);
    expect(new URL(lists[0] ?? '').searchParams.get('product_id')).toBe(product.id);
  }
  // Signed out, the boot's refresh answers 401 and the sign-in page shows; the calls the page
  // made meanwhile waited for it and tried no second refresh.
  await page.context().clearCookies();
  refreshes.length = 0;
  await page.goto(`${webUrl()}/findings`);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(refreshes, 'signed out: refresh requests').toHaveLength(1);
});
