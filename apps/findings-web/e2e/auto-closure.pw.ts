import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import {
  admin,
  expect,
  expectAccessible,
  sarif,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
  type Api,
} from './support/fixtures';
import { ScannerStandIn, sendCallback, type CallbackKey } from './support/scanner-stand-in';

/**
 * The automatic closure as the analyst sees it (docs/findings-service/auto-closure.md), on the
 * shared stack that global-setup starts with FEATURE_AUTO_VERIFY_FIXES and
 * FEATURE_MANUAL_REVERIFICATION on and checks 30 ms apart: reports uploaded with `verify_fixes`,
 * a scanner stand-in on loopback that verifies the service's signed re-verification requests
 * and answers through the signed callback route, the finding page's panel, its action log, the
 * project's endpoint and the administrators' callback keys.
 */

type Result = Parameters<typeof sarif>[1][number];

/** Two findings of one file: a scan that reports A alone covers B's file and misses B. */
const A: Result = {
  rule: 'weak-hash',
  level: 'warning',
  file: 'src/app.ts',
  line: 3,
  text: 'Weak hash MD5',
};
const B: Result = {
  rule: 'sql-injection',
  level: 'error',
  file: 'src/app.ts',
  line: 9,
  text: 'SQL injection in query',
};

interface ClosureView {
  state: string;
  consecutive_absent: number;
  last_product_check: { report_id: string; state: string } | null;
}

async function projectWithProduct(api: Api, autoVerify: boolean) {
  const project = await api.project(unique('proj'));
  const res = await api.request.put(`${webUrl()}/api/v1/projects/${project.id}/settings`, {
    headers: api.authHeaders(),
    data: { auto_verify_fixes: autoVerify },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { project, product: await api.product(project.id, unique('prod')) };
}

/** Uploads a report with `verify_fixes=true` and waits until it is ingested; its id. */
async function scan(api: Api, productId: string, results: Result[]): Promise<string> {
  const res = await api.request.post(`${webUrl()}/api/v1/products/${productId}/reports`, {
    headers: api.authHeaders(),
    multipart: {
      verify_fixes: 'true',
      file: {
        name: 'scan.sarif',
        mimeType: 'application/json',
        buffer: Buffer.from(sarif('semgrep', results)),
      },
    },
  });
  expect(res.status(), await res.text()).toBe(202);
  const { report_id } = ((await res.json()) as { data: { report_id: string } }).data;
  await expect
    .poll(async () => (await api.get<{ status: string }>(`/api/v1/reports/${report_id}`)).status, {
      timeout: 60_000,
    })
    .toBe('completed');
  return report_id;
}

const closureOf = (api: Api, findingId: string) =>
  api.get<ClosureView>(`/api/v1/findings/${findingId}/auto-closure`);

/** Waits until the closure check of `reportId` has ended (as the finding's view reports it). */
async function checked(api: Api, findingId: string, reportId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const check = (await closureOf(api, findingId)).last_product_check;
        return check?.report_id === reportId ? check.state : `waiting for ${reportId}`;
      },
      { timeout: 30_000 },
    )
    .not.toMatch(/^(running|waiting)/);
}

async function findingIds(api: Api, projectId: string): Promise<Record<string, string>> {
  const { items } = await api.get<{ items: { id: string; rule_id: string }[] }>(
    `/api/v1/findings?project_id=${projectId}`,
  );
  return Object.fromEntries(items.map((f) => [f.rule_id, f.id]));
}

async function callbackKey(api: Api): Promise<CallbackKey> {
  return api.post<CallbackKey>('/api/v1/admin/scanner-callback-keys', {
    name: unique('scanner'),
  });
}

/**
 * The first two tests upload and have checked up to four reports on the shared stack (about 6 s
 * each at load 15 on this machine, where a page load alone took 2-4 s): more than the default.
 */
const SCANNING_TIMEOUT_MS = 240_000;

const stateOf = (page: Page) => page.getByTestId('auto-closure').getByTestId('auto-closure-state');

test('the finding page explains the automatic closure: counting, then closed with its evidence; the action log shows it; an unaffected finding is not tracked', async ({
  page,
  api,
}) => {
  test.setTimeout(SCANNING_TIMEOUT_MS);
  const key = await callbackKey(api);
  const standIn = new ScannerStandIn(webUrl(), key);
  await standIn.start();
  try {
    const { project, product } = await projectWithProduct(api, true);

    // The project admin sets the re-verification endpoint; its secret is shown once.
    await signIn(page);
    await page.goto(`${webUrl()}/projects/${project.id}`);
    const endpoint = page.getByTestId('verification-endpoint');
    await expect(endpoint.getByTestId('endpoint-state')).toHaveAttribute(
      'data-configured',
      'false',
    );
    await endpoint.getByRole('textbox', { name: 'Endpoint URL' }).fill(standIn.url);
    await endpoint.getByRole('button', { name: 'Save' }).click();
    const once = endpoint.getByTestId('one-time-secret');
    await expect(once).toContainText('shown only this once');
    const secret = ((await once.getByTestId('secret-value').textContent()) ?? '').trim();
    expect(secret).toMatch(/^fvs_/);
    standIn.secrets.set(project.id, secret);
    await expectAccessible(page, 'project with its re-verification endpoint');
    await screenshot(page, 'auto-closure-endpoint-secret');
    await once.getByRole('button', { name: 'I have stored it' }).click();
    await expect(once).toHaveCount(0);
    await page.reload();
    await expect(endpoint.getByTestId('endpoint-state')).toHaveAttribute('data-configured', 'true');
    await expect(endpoint.getByRole('textbox', { name: 'Endpoint URL' })).toHaveValue(standIn.url);
    expect(await page.content()).not.toContain(secret);

    // A and B found by a report uploaded on this page with verify_fixes, then two scans that
    // report A only (they cover B's file): B is counted.
    const upload = page.getByTestId(`upload-${product.id}`);
    await upload.locator('input[type=file]').setInputFiles({
      name: 'scan.sarif',
      mimeType: 'application/json',
      buffer: Buffer.from(sarif('semgrep', [A, B])),
    });
    await upload.getByRole('checkbox', { name: 'Check which findings are fixed' }).check();
    await upload.getByRole('button', { name: 'Upload a report' }).click();
    await expect(upload.getByTestId('report-state')).toHaveAttribute('data-state', 'completed', {
      timeout: 60_000,
    });
    const ids = await findingIds(api, project.id);
    const a = ids[A.rule] ?? '';
    const b = ids[B.rule] ?? '';
    // The upload carried verify_fixes: its report got a check.
    await expect
      .poll(async () => (await closureOf(api, b)).last_product_check?.state, { timeout: 30_000 })
      .toBe('completed');
    const reports: string[] = [];
    for (let i = 0; i < 2; i++) {
      reports.push(await scan(api, product.id, [A]));
      await checked(api, b, reports[i] ?? '');
    }
    await page.goto(`${webUrl()}/findings/${b}`);
    await expect(stateOf(page)).toHaveText('Counting: missed by 2 of 3 required consecutive scans');
    await expect(page.getByTestId('streak-reports').locator('li')).toHaveText(reports);
    await expect(page.getByTestId('auto-closure-last-check')).toContainText(
      `Last check: absent (report ${reports[1]}`,
    );
    // The manual re-verification list is there (the routes are on), still empty.
    await expect(page.getByTestId('reverification')).toContainText(
      'No re-verification requested yet.',
    );
    await expectAccessible(page, 'finding counted towards its automatic closure');
    await screenshot(page, 'auto-closure-counting');

    // The third scan: the service asks the scanner, which answers `absent`; B closes.
    reports.push(await scan(api, product.id, [A]));
    await expect
      .poll(async () => (await closureOf(api, b)).state, { timeout: 30_000 })
      .toBe('closed');
    expect(standIn.received.filter((r) => r.finding_id === b)).toHaveLength(1);
    expect(standIn.received.filter((r) => r.finding_id === a)).toHaveLength(0);
    expect(standIn.refused).toEqual([]);
    expect(standIn.callbackFailures).toEqual([]);

    expect((await api.get<{ status: string }>(`/api/v1/findings/${b}`)).status).toBe('fixed');
    await page.reload();
    await expect(stateOf(page)).toContainText('Closed automatically on ');
    const panel = page.getByTestId('auto-closure');
    const evidence = panel.getByTestId('closure-evidence');
    await expect(evidence.getByTestId('evidence-checks')).toHaveText(
      '3 consecutive scans missed it (3 required)',
    );
    await expect(evidence.getByTestId('evidence-report')).toHaveText(reports);
    await expect(evidence.getByTestId('evidence-confirmation')).toContainText(
      'Confirmed by the scanner: absent at ',
    );
    await expect(evidence.getByTestId('evidence-confirmation')).toContainText(
      `key ${key.key_id} (asked automatically)`,
    );
    // The request the service sent on its own, answered with the key that signed the answer.
    const requests = panel.getByTestId('verification');
    await expect(requests).toHaveCount(1);
    await expect(requests.first()).toHaveAttribute('data-state', 'answered');
    await expect(requests.first()).toContainText('automatic');
    await expect(requests.first().getByTestId('verification-answer')).toContainText(`absent at `);
    await expect(requests.first().getByTestId('verification-answer')).toContainText(
      `key ${key.key_id}`,
    );

    // The action log: one automatic entry by auto-closure, New → Fixed, with its evidence.
    const entry = page
      .getByTestId('action-log')
      .locator('[data-testid=action][data-action=status_changed]');
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('auto-closure');
    await expect(entry).toContainText('automatic');
    await expect(entry.locator('[data-field=status]')).toHaveText('Status: New → Fixed');
    const logged = entry.locator('[data-field=evidence]');
    await expect(logged.getByTestId('evidence-checks')).toHaveText(
      '3 consecutive scans missed it (3 required)',
    );
    await expect(logged.getByTestId('evidence-report')).toHaveText(reports);
    await expect(logged.getByTestId('evidence-confirmation')).toContainText(`key ${key.key_id}`);
    await expectAccessible(page, 'finding closed automatically');
    await screenshot(page, 'auto-closure-closed');

    // A was in every report: nothing has missed it.
    await page.goto(`${webUrl()}/findings/${a}`);
    await expect(stateOf(page)).toHaveText(
      'No covering scan has missed this finding since it was last seen.',
    );

    // In Russian too.
    await page.goto(`${webUrl()}/findings/${b}`);
    await page.getByText('Русский', { exact: true }).click();
    await expect(stateOf(page)).toContainText('Закрыта автоматически');
    await expect(evidence.getByTestId('evidence-checks')).toHaveText(
      'Не найдена в 3 сканированиях подряд (требуется 3)',
    );
  } finally {
    await standIn.close();
  }
});

test('manual re-verification: the request shows as pending until the scanner answers; without an endpoint the API refuses', async ({
  page,
  api,
}) => {
  test.setTimeout(SCANNING_TIMEOUT_MS);
  const key = await callbackKey(api);
  const standIn = new ScannerStandIn(webUrl(), key);
  await standIn.start();
  try {
    const { project, product } = await projectWithProduct(api, true);
    const put = await api.request.put(
      `${webUrl()}/api/v1/projects/${project.id}/verification-endpoint`,
      { headers: api.authHeaders(), data: { url: standIn.url } },
    );
    expect(put.status(), await put.text()).toBe(200);
    standIn.secrets.set(
      project.id,
      ((await put.json()) as { data: { secret: string } }).data.secret,
    );
    await api.ingest(product.id, sarif('semgrep', [A]));
    const a = (await findingIds(api, project.id))[A.rule] ?? '';
    standIn.answer = () => 'hold';

    await signIn(page);
    await page.goto(`${webUrl()}/findings/${a}`);
    const section = page.getByTestId('reverification');
    await expect(section).toContainText('No re-verification requested yet.');
    await section.getByRole('button', { name: 'Ask the scanner to re-verify' }).click();
    const request = section.getByTestId('verification');
    await expect(request).toHaveCount(1);
    await expect(request).toHaveAttribute('data-state', 'pending');
    await expect(request).toContainText(`by ${admin.email()}`);
    await expect(request).toContainText('pending');
    await expect.poll(() => standIn.heldFor(a).length).toBe(1);
    await expectAccessible(page, 'finding with a pending re-verification');
    await screenshot(page, 'auto-closure-reverification-pending');

    // The scanner looks again and still sees it.
    await standIn.release(a, 'present');
    expect(standIn.callbackFailures).toEqual([]);
    await expect(request).toHaveAttribute('data-state', 'answered');
    await expect(request.getByTestId('verification-answer')).toContainText(`present at `);
    await expect(request.getByTestId('verification-answer')).toContainText(`key ${key.key_id}`);
    expect(standIn.refused).toEqual([]);

    // The project admin removes the endpoint (confirmed); asking again is refused, localized.
    await page.goto(`${webUrl()}/projects/${project.id}`);
    const endpoint = page.getByTestId('verification-endpoint');
    await endpoint.getByRole('button', { name: 'Remove the endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the re-verification endpoint?' });
    await dialog.getByRole('button', { name: 'Remove the endpoint' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(endpoint.getByTestId('endpoint-state')).toHaveAttribute(
      'data-configured',
      'false',
    );
    await page.goto(`${webUrl()}/findings/${a}`);
    await page
      .getByTestId('reverification')
      .getByRole('button', { name: 'Ask the scanner to re-verify' })
      .click();
    await expect(page.getByTestId('reverification').getByTestId('api-error')).toContainText(
      'verification_endpoint_missing',
    );
  } finally {
    await standIn.close();
  }
});

test('the product’s skipped check says which switch was off', async ({ page, api }) => {
  const { project, product } = await projectWithProduct(api, false);
  const report = await scan(api, product.id, [A, B]);
  const b = (await findingIds(api, project.id))[B.rule] ?? '';
  await checked(api, b, report);
  await signIn(page);
  await page.goto(`${webUrl()}/findings/${b}`);
  await expect(stateOf(page)).toHaveText(
    "Automatic closure is off: the project's auto-verify setting is off.",
  );
  await expect(page.getByTestId('auto-closure-product-check')).toHaveText(
    `The product's last check (report ${report}) was skipped: the project's auto-verify was off.`,
  );
});

test('callback keys: the secret is shown once at creation and rotation, never listed; a retired key is refused', async ({
  page,
  api,
}) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Scanner keys' }).click();
  await expect(page.getByRole('heading', { name: 'Scanner callback keys' })).toBeVisible();
  const name = unique('ci-semgrep');
  const form = page.getByRole('form', { name: 'New key' });
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('button', { name: 'New key' }).click();
  const once = page.getByTestId('one-time-secret');
  await expect(once).toContainText('shown only this once');
  const secret = ((await once.getByTestId('secret-value').textContent()) ?? '').trim();
  expect(secret).toMatch(/^scs_/);
  const named = page.getByTestId('callback-key').filter({ hasText: name });
  await expect(named).toHaveCount(1);
  await expect(named).toHaveAttribute('data-state', 'active');
  const keyId = (await named.getAttribute('data-key-id')) ?? '';
  expect(keyId).toMatch(/^sck_[0-9a-f]{16}$/);
  const row = page.locator(`[data-testid=callback-key][data-key-id=${keyId}]`);
  await expect(once).toContainText(keyId);
  await expectAccessible(page, 'callback keys with a new secret');
  await screenshot(page, 'auto-closure-callback-key-created');

  // The secret shown is the key's: a callback signed with it is accepted (an unknown finding
  // is only ignored).
  const accepted = await sendCallback(webUrl(), { key_id: keyId, secret }, [
    { finding_id: randomUUID(), result: 'absent' },
  ]);
  expect(accepted.status, accepted.body).toBe(200);
  expect(accepted.body).toContain('unknown_finding');

  await once.getByRole('button', { name: 'I have stored it' }).click();
  await expect(once).toHaveCount(0);
  await page.reload();
  await expect(row).toHaveAttribute('data-state', 'active');
  expect(await page.content()).not.toContain(secret);
  const listed = await api.get<Record<string, unknown>[]>('/api/v1/admin/scanner-callback-keys');
  expect(listed.find((k) => k['key_id'] === keyId)).not.toHaveProperty('secret');

  // Rotation: a successor with its own secret (shown once); the old key keeps working for 2 h.
  await row.getByRole('button', { name: `Rotate ${keyId}` }).click();
  const rotate = page.getByRole('dialog', { name: `Rotate ${keyId}` });
  await rotate.getByRole('textbox', { name: 'Old key valid for (hours)' }).fill('2');
  await rotate.getByRole('button', { name: 'Rotate', exact: true }).click();
  await expect(rotate).toHaveCount(0);
  await expect(once).toContainText('shown only this once');
  const successorSecret = ((await once.getByTestId('secret-value').textContent()) ?? '').trim();
  expect(successorSecret).toMatch(/^scs_/);
  expect(successorSecret).not.toBe(secret);
  await expect(named).toHaveCount(2);
  await expect(row).toHaveAttribute('data-state', 'rotating');
  const successor = named.and(page.locator('[data-state=active]'));
  const successorId = (await successor.getAttribute('data-key-id')) ?? '';
  expect(successorId).not.toBe(keyId);
  await once.getByRole('button', { name: 'I have stored it' }).click();

  // Retirement asks first; a callback signed with the retired key is refused.
  await successor.getByRole('button', { name: `Retire ${successorId}?` }).click();
  const retire = page.getByRole('dialog', { name: `Retire ${successorId}?` });
  await expect(retire).toContainText('refused from now on');
  await retire.getByRole('button', { name: 'Retire', exact: true }).click();
  await expect(retire).toHaveCount(0);
  await expect(page.locator(`[data-key-id=${successorId}]`)).toHaveAttribute(
    'data-state',
    'retired',
  );
  const refused = await sendCallback(webUrl(), { key_id: successorId, secret: successorSecret }, [
    { finding_id: randomUUID(), result: 'absent' },
  ]);
  expect(refused.status).toBe(401);
  expect(refused.body).toContain('callback_key_retired');
  expect(await page.content()).not.toContain(successorSecret);
  await screenshot(page, 'auto-closure-callback-keys');
});
