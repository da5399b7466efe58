/// <reference lib="dom" />
// page.evaluate / addInitScript callbacks run in the browser (localStorage, window, document).
import { Client } from 'pg';
import { stackVar } from '@platform/web-ui/e2e';
import {
  expect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
} from './support/fixtures';

const COUNT = 120;
/** Lowered from 500 (src/pages/requests/bulk-sizes.ts): three pages read, three chunks sent. */
const SIZES = { page: 50, chunk: 50 };

/**
 * `count - 1` more pending requests like `requestId` (same device, purpose and CSR), one
 * second apart and older than it, set-based: the queue's "select all matching" needs more
 * rows than a page, and enrolling hundreds through the API would take minutes.
 */
async function copiesOf(requestId: string, count: number): Promise<void> {
  const client = new Client({ connectionString: stackVar('CERT_DATABASE_URL') });
  await client.connect();
  try {
    const columns = (
      await client.query<{ name: string }>(
        `SELECT column_name AS name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = 'certificate_requests'
            AND column_name NOT IN ('id', 'created_at', 'updated_at')`,
      )
    ).rows.map((c) => `"${c.name}"`);
    const copied = await client.query(
      `INSERT INTO certificate_requests (id, created_at, updated_at, ${columns.join(', ')})
       SELECT gen_random_uuid(), r.created_at - g * interval '1 second', now(), ${columns
         .map((c) => `r.${c}`)
         .join(', ')}
         FROM certificate_requests r, generate_series(1, $2::int) AS g WHERE r.id = $1`,
      [requestId, count - 1],
    );
    expect(copied.rowCount).toBe(count - 1);
  } finally {
    await client.end();
  }
}

test('an approver selects all matching pending requests beyond the loaded page and approves them with progress and each row outcome', async ({
  page,
  api,
}) => {
  const email = `${unique('select-all').toLowerCase()}@certificate-web.test`;
  const password = await api.person(email, ['cert-approver']);
  const device = await api.enroll(unique('SELALL'));
  await copiesOf(device.requestId, COUNT);

  await page.addInitScript(
    (sizes) => localStorage.setItem('certificate-web.bulk-sizes', sizes),
    JSON.stringify(SIZES),
  );
  await signIn(page, email, password);
  await page.goto(`${webUrl()}/requests?serial=${device.serial}`);
  await expect(page.getByTestId('requests-total')).toHaveText(`100 of ${COUNT} requests`);
  await page.getByRole('button', { name: `Select all ${COUNT} matching` }).click();
  await expect(page.getByTestId('requests-selected')).toHaveText(`${COUNT} selected`);
  // Every loaded row is ticked; the button gives way to "Clear selection".
  await expect(page.getByRole('checkbox', { checked: false })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Select all/ })).toHaveCount(0);
  await expectAccessible(page, 'requests-select-all-selected');
  await screenshot(page, 'requests-select-all-selected');

  // One of them decided meanwhile (through the API): that row is refused, the rest issued.
  const oldest = (
    await api.send<{ items: { id: string }[] }>(
      'GET',
      `/api/v1/requests?serial=${device.serial}&status=pending&page=${COUNT}&limit=1`,
    )
  ).items[0]?.id;
  expect(oldest).toBeTruthy();
  await api.send('POST', '/api/v1/requests/approve', { request_ids: [oldest] });

  // Every value the progress indicator shows, recorded in the page.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progress: string[] }).progress = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="bulk-progress"]')?.textContent ?? '';
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByRole('button', { name: 'Approve selected' }).click();
  // The same device and purpose has several pending requests: the conflict check asks first.
  await expect(page.getByRole('dialog', { name: 'Serial conflicts' })).toBeVisible();
  await page.getByRole('button', { name: 'Approve anyway' }).click();
  await expect(page.getByTestId('bulk-summary')).toHaveText(
    `Results: ${COUNT - 1} done, 1 refused`,
    { timeout: 60_000 },
  );
  // The progress went 0, 50, 100 (120 is the results).
  const progress = await page.evaluate(
    () => (window as unknown as { progress: string[] }).progress,
  );
  expect(progress).toEqual(
    expect.arrayContaining([
      `0 of ${COUNT} processed`,
      `50 of ${COUNT} processed`,
      `100 of ${COUNT} processed`,
    ]),
  );
  await expect(page.getByTestId('bulk-result')).toHaveCount(COUNT);
  await expect(page.locator('[data-outcome="issued"]')).toHaveCount(COUNT - 1);
  await expect(
    page.locator(`[data-testid="bulk-result"][data-request-id="${oldest}"]`),
  ).toHaveAttribute('data-outcome', 'request_not_pending');
  await expect(page.getByTestId('requests-total')).toHaveText('0 of 0 requests');
  await expectAccessible(page, 'requests-select-all-results');
  await screenshot(page, 'requests-select-all-results');
});
