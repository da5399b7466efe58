import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startJiraStandIn } from '@platform/testing/trackers';
import {
  expect,
  expectAccessible,
  sarif,
  screenshot,
  signIn,
  sql,
  test,
  unique,
  webUrl,
} from './support/fixtures';
import {
  REPOSITORY_ROOT,
  freePort,
  startNode,
  waitForHttp,
  type Child,
} from '@platform/web-ui/e2e';

/**
 * The repository's signed local catalog (tools/catalog/local-catalog.mjs: the catalog plugins
 * built with the SDK and signed with a local publisher key), served on loopback; the admin adds
 * it as a source with its public key and installs and configures a plugin from it.
 */
let work: string;
let catalog: Child | undefined;
let catalogUrl: string;
let publicKey: string;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  work = mkdtempSync(join(tmpdir(), 'findings-web-catalog-'));
  execFileSync(
    process.execPath,
    [
      'tools/catalog/local-catalog.mjs',
      '--state',
      join(work, 'state'),
      '--out',
      join(work, 'catalog'),
    ],
    {
      cwd: REPOSITORY_ROOT,
      stdio: 'ignore',
      timeout: 540_000,
      // The component cache the Jest files filled (componentCacheDir of @platform/plugin-sdk):
      // without it the catalog's seven wasm plugins were componentized again, minutes of CPU.
      env: {
        ...process.env,
        PLUGIN_COMPONENT_CACHE:
          process.env.PLUGIN_COMPONENT_CACHE ??
          join(process.env.STACK_STATE_DIR ?? '/var/tmp/secplatform-stack', 'plugin-components'),
      },
    },
  );
  publicKey = readFileSync(join(work, 'catalog/publisher.pub.pem'), 'utf8');
  const port = await freePort();
  catalog = startNode('catalog', ['tools/catalog/serve-catalog.mjs'], {
    CATALOG_DIR: join(work, 'catalog'),
    CATALOG_PORT: String(port),
  });
  await waitForHttp(catalog, `http://127.0.0.1:${port}/healthz`, 10_000);
  catalogUrl = `http://127.0.0.1:${port}/catalog.json`;
});

test.afterAll(async () => {
  await catalog?.stop();
  rmSync(work, { recursive: true, force: true });
});

test('plugin administration: a signed source, native grant needs a confirmation, install, settings with a write-only secret, enable', async ({
  page,
  api,
}) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Plugins' }).click();
  const add = page.getByRole('form', { name: 'Add a source' });
  await add.getByRole('textbox', { name: 'Name' }).fill('Local catalog');
  await add.getByRole('textbox', { name: 'Catalog URL' }).fill(catalogUrl);
  await add.getByRole('textbox', { name: /Publisher public key/ }).fill(publicKey);
  await add.getByRole('button', { name: 'Add a source' }).click();
  const source = page.getByTestId('marketplace-Local catalog');
  await expect(source).toContainText('signed');
  await expect(add.getByRole('textbox', { name: /Publisher public key/ })).toHaveValue('');
  await expectAccessible(page, 'plugins');

  // Granting native execution asks first; cancelling changes nothing; withdrawing does not ask.
  const native = source.getByRole('checkbox', { name: 'Native plugins' });
  await native.click();
  const dialog = page.getByRole('dialog', { name: 'Allow native plugins?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(native).not.toBeChecked();
  await native.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Allow native plugins' }).click();
  await expect(native).toBeChecked();
  await native.click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(native).not.toBeChecked();

  // Catalog with versions; install the CMDB enricher.
  await source.getByRole('button', { name: 'Catalog' }).click();
  await expect(source).toContainText('Catalog signature verified');
  const entry = page.getByTestId('catalog-cmdb-enricher');
  await expect(entry.getByRole('combobox', { name: 'Version cmdb-enricher' })).toHaveValue('1.1.0');
  await entry.getByRole('button', { name: 'Install' }).click();
  await expect(entry).toContainText('installed 1.1.0');
  const installed = page.getByTestId('installed-cmdb-enricher');
  await expect(installed.getByTestId('plugin-state')).toHaveText('disabled');

  // Settings generated from the plugin's schema; the secret is write-only.
  const form = installed.getByRole('form', { name: 'Settings cmdb-enricher' });
  await form.getByRole('textbox', { name: 'cmdb_base_url' }).fill('http://127.0.0.1:9');
  await form.getByRole('textbox', { name: 'database_id' }).fill('5');
  await form.getByRole('textbox', { name: 'servers_table_id' }).fill('9');
  await form.getByLabel('api_token').fill('very-secret-token');
  await form.getByRole('button', { name: 'Save' }).click();
  // The plugin validates the settings at save, so the first save loads it into the runner: jco
  // transpile and compile of the ~12 MB component (10.4 s measured here at load average 8; the
  // plugin bench's cold load: 2.6 s at load 4-8, 7.6 s at 21-26).
  await expect(installed.getByTestId('secrets-set')).toContainText('api_token', {
    timeout: 60_000,
  });
  await expect(installed.getByLabel('api_token')).toHaveValue('');
  await expect(installed.getByLabel('api_token')).toHaveAttribute('placeholder', /^set/);
  const stored = await api.get<{ id: string; settings: Record<string, unknown> }[]>(
    '/api/v1/admin/installed-plugins',
  );
  expect(JSON.stringify(stored)).not.toContain('very-secret-token');

  await installed.getByRole('button', { name: 'Enable' }).click();
  await expect(installed.getByTestId('plugin-state')).toHaveText('enabled');
  await expectAccessible(page, 'plugins installed');
  await screenshot(page, 'plugins');
});

test('a ticket from a finding: the catalog Jira provider in the real runner creates the task in the tracker; the finding shows its key and state, the list its key; a second finding links to the same task; one task for a selection', async ({
  page,
  api,
}) => {
  // Enabling loads the provider's component into the runner: up to minutes on a busy machine.
  test.setTimeout(600_000);
  const token = 'jira-api-token-pw-0123456789';
  const tracker = await startJiraStandIn({
    email: 'bot@example.com',
    apiToken: token,
    clientId: 'unused',
    clientSecret: 'unused-secret',
    projects: [
      { id: '10100', key: 'SEC', name: 'Security' },
      { id: '10101', key: 'OPS', name: 'Operations' },
    ],
  });
  try {
    const sources = await api.get<{ id: string; name: string }[]>(
      '/api/v1/admin/plugin-marketplaces',
    );
    const source =
      sources.find((s) => s.name === 'Local catalog') ??
      (await api.post<{ id: string }>('/api/v1/admin/plugin-marketplaces', {
        name: 'Local catalog',
        catalog_url: catalogUrl,
        public_key: publicKey,
      }));
    const installed = await api.post<{ id: string }>('/api/v1/admin/installed-plugins', {
      source_type: 'marketplace',
      marketplace_id: source.id,
      catalog_plugin_id: 'jira-provider',
    });
    // The administrator lets the installation reach the tracker (the provider checks the whole
    // configuration); projects then name it with their own key and token.
    const put = await api.request.put(
      `${webUrl()}/api/v1/admin/installed-plugins/${installed.id}`,
      {
        headers: api.authHeaders(),
        data: {
          settings: { base_url: tracker.url, project_key: 'OPS', email: 'bot@example.com' },
          secret_settings: { api_token: token },
        },
      },
    );
    expect(put.ok(), await put.text()).toBe(true);
    const enabled = await api.request.post(
      `${webUrl()}/api/v1/admin/installed-plugins/${installed.id}/enable`,
      { headers: api.authHeaders(), data: {}, timeout: 300_000 },
    );
    expect(enabled.ok(), await enabled.text()).toBe(true);

    const project = await api.project(unique('ticketed'));
    const product = await api.product(project.id, unique('shop'));
    await api.ingest(
      product.id,
      sarif('semgrep', [
        {
          rule: 'sql-injection',
          level: 'error',
          file: 'src/db.ts',
          line: 10,
          text: 'SQL built from input',
        },
        {
          rule: 'sql-injection',
          level: 'error',
          file: 'src/api.ts',
          line: 20,
          text: 'SQL built from input',
        },
      ]),
    );
    const config = await api.request.put(
      `${webUrl()}/api/v1/projects/${project.id}/ticket-provider/config`,
      {
        headers: api.authHeaders(),
        data: {
          plugin_id: installed.id,
          settings: {
            base_url: tracker.url,
            project_key: 'SEC',
            email: 'bot@example.com',
            api_token: token,
          },
          default_target: 'SEC',
        },
      },
    );
    expect(config.ok(), await config.text()).toBe(true);
    const listed = await api.get<{ items: { id: string; location: { file_path: string } }[] }>(
      `/api/v1/findings?product_id=${product.id}`,
    );
    const idOf = (path: string) => listed.items.find((f) => f.location.file_path === path)?.id;
    const first = idOf('src/db.ts') ?? '';
    const second = idOf('src/api.ts') ?? '';
    expect([first, second]).not.toContain('');

    await signIn(page);
    await page.goto(`${webUrl()}/findings/${first}`);
    const panel = page.getByTestId('finding-page-ticket');
    await expect(panel.getByTestId('ticket-target')).toBeVisible({ timeout: 120_000 });
    // The target list is the tracker's projects; the comment is checked before it is sent.
    await panel.getByTestId('ticket-target').click();
    await page.getByRole('option', { name: 'Operations (OPS)' }).click();
    await panel.getByTestId('ticket-target').click();
    await page.getByRole('option', { name: 'Security (SEC)' }).click();
    await panel.getByRole('textbox', { name: /First comment/ }).fill('x'.repeat(10_001));
    await panel.getByRole('button', { name: 'Create ticket' }).click();
    await expect(panel).toContainText('At most 10000 characters');
    expect(tracker.issues.size).toBe(0);
    await panel
      .getByRole('textbox', { name: /First comment/ })
      .fill('Please fix before the release');
    await panel.getByRole('button', { name: 'Create ticket' }).click();

    const key = panel.getByTestId('ticket-key');
    await expect(key).toHaveText('SEC-1', { timeout: 120_000 });
    await expect(key).toHaveAttribute('href', `${tracker.url}/browse/SEC-1`);
    await expect(panel.getByTestId('ticket-status')).toHaveText('Open');
    const issue = tracker.issues.get('SEC-1');
    expect(issue?.fields['labels']).toEqual([`findsvc-${first}`]);
    expect(issue?.comments.map((c) => JSON.stringify(c)).join(' ')).toContain(
      'Please fix before the release',
    );
    await expectAccessible(page, 'finding with its ticket');
    await screenshot(page, 'finding-ticket');

    // The second finding joins the same task by its key.
    await page.goto(`${webUrl()}/findings/${second}`);
    await panel.getByRole('button', { name: 'Link' }).click();
    await expect(panel).toContainText('Required');
    await panel.getByRole('textbox', { name: /Existing task/ }).fill('SEC-1');
    await panel.getByRole('button', { name: 'Link' }).click();
    await expect(panel.getByTestId('ticket-key')).toHaveText('SEC-1', { timeout: 120_000 });
    await expect(panel.getByTestId('ticket-shared')).toHaveText('One task for 2 findings');
    // A move the tracker refused (the worker's service-to-tracker sync) is named on the page.
    await sql(
      `UPDATE tickets SET sync_error = $1
        WHERE id = (SELECT ticket_id FROM finding_tickets WHERE finding_id = $2)`,
      ['unauthorized: HTTP 401', second],
    );
    await page.reload();
    await expect(panel.getByTestId('ticket-sync-error')).toHaveText(
      'The tracker refused the last move of this task: unauthorized: HTTP 401',
      { timeout: 60_000 },
    );

    // The list names the task of each row.
    await page.goto(`${webUrl()}/findings?product_id=${product.id}`);
    await expect(page.getByTestId('row-ticket')).toHaveText(['SEC-1', 'SEC-1']);

    // One task for a selection: the rows without a task join it, the one with a task is skipped.
    const other = await api.product(project.id, unique('web'));
    await api.ingest(
      other.id,
      sarif('semgrep', [
        { rule: 'xss', level: 'warning', file: 'web/a.js', line: 1, text: 'Reflected XSS' },
        { rule: 'xss', level: 'warning', file: 'web/b.js', line: 2, text: 'Reflected XSS' },
      ]),
    );
    await page.goto(`${webUrl()}/findings?project_id=${project.id}&sort=created_at&order=desc`);
    const rows = page.getByTestId('finding-row');
    await expect(rows).toHaveCount(4);
    for (const index of [0, 1, 2]) await rows.nth(index).getByRole('checkbox').check();
    const bar = page.getByTestId('bulk-bar');
    await bar.getByRole('button', { name: 'Create one ticket' }).click();
    await expect(bar).toContainText('Required');
    await bar.getByTestId('bulk-ticket-title').fill('Reflected XSS in the web product');
    await bar.getByRole('button', { name: 'Create one ticket' }).click();
    await expect(page.getByTestId('bulk-result')).toContainText(
      'SEC-2: 2 linked, 1 skipped (they had a ticket)',
      { timeout: 120_000 },
    );
    expect(tracker.issues.get('SEC-2')?.fields['summary']).toBe('Reflected XSS in the web product');
    await expect(page.getByTestId('row-ticket')).toHaveText(['SEC-2', 'SEC-2', 'SEC-1', 'SEC-1']);
  } finally {
    await tracker.close();
  }
});
