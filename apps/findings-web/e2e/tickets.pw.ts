import {
  expect,
  expectAccessible,
  screenshot,
  signIn,
  sql,
  test,
  unique,
  webUrl,
} from './support/fixtures';

/**
 * A ticketing provider installed as the API's own seeds do (the configuration routes load no
 * plugin code): per-project settings `project_key` and the secret `api_token`.
 */
async function seedProvider(): Promise<string> {
  const manifest = Buffer.from(
    JSON.stringify({
      id: 'pw-tracker',
      version: '1.0.0',
      capabilities: ['ticketing_provider'],
      runtime: 'wasm',
      wit_version: '0.1.0',
      min_service_version: '>=0.33',
      allowed_hosts: [],
      settings: [
        { name: 'project_key', type: 'string', per_project: true },
        { name: 'api_token', type: 'string', secret: true, per_project: true },
      ],
      artifact_sha256: '2'.repeat(64),
    }),
  );
  const [row] = await sql<{ id: string }>(
    `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
            artifact_sha256, manifest, capabilities)
     VALUES ('sideload', 'pw-tracker', 'wasm', true, '1.0.0', $1, $2, '{ticketing_provider}')
     ON CONFLICT (catalog_plugin_id) DO UPDATE SET enabled = true
     RETURNING id`,
    ['2'.repeat(64), manifest],
  );
  return row?.id ?? '';
}

test('ticket tracker of a project: provider, default target, tracker-close rule and sync saved; the webhook secret shown once after a rotation, then only "set"', async ({
  page,
  api,
  browser,
}) => {
  test.slow();
  const pluginId = await seedProvider();
  const project = await api.project(unique('tickets'));
  await signIn(page);
  await page.goto(`${webUrl()}/projects/${project.id}`);
  await expect(page.getByRole('heading', { name: 'Ticket tracker' })).toBeVisible({
    timeout: 60_000,
  });
  const section = page.getByTestId('project-tickets');
  const form = section.getByRole('form', { name: 'Ticket tracker settings' });
  await expect(section.getByTestId('ticket-webhook-state')).toContainText('not set');
  await form.getByRole('combobox', { name: 'Provider' }).click();
  await page.getByRole('option', { name: 'pw-tracker 1.0.0' }).click();
  await form.getByRole('textbox', { name: /^Default target/ }).fill('SEC');
  await form.getByRole('radio', { name: 'Mark its findings that need attention as fixed' }).check();
  await form
    .getByRole('checkbox', { name: 'Send finding status changes to the tracker' })
    .uncheck();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByTestId('ticket-config-saved')).toBeVisible();
  await expectAccessible(page, 'project ticket tracker');

  const stored = await api.get<{
    plugin_id: string;
    default_target: string;
    tracker_closed_action: string;
    sync_status_to_tracker: boolean;
  }>(`/api/v1/projects/${project.id}/ticket-provider/config`);
  expect(stored).toMatchObject({
    plugin_id: pluginId,
    default_target: 'SEC',
    tracker_closed_action: 'mark_fixed',
    sync_status_to_tracker: false,
  });

  await page.reload();
  const reloaded = page
    .getByTestId('project-tickets')
    .getByRole('form', { name: 'Ticket tracker settings' });
  await expect(reloaded.getByRole('combobox', { name: 'Provider' })).toHaveValue(
    'pw-tracker 1.0.0',
    { timeout: 60_000 },
  );
  await expect(reloaded.getByRole('textbox', { name: /^Default target/ })).toHaveValue('SEC');
  await expect(
    reloaded.getByRole('radio', { name: 'Mark its findings that need attention as fixed' }),
  ).toBeChecked();
  await expect(
    reloaded.getByRole('checkbox', { name: 'Send finding status changes to the tracker' }),
  ).not.toBeChecked();

  // Rotation: the secret once, in the one-time box; afterwards only "set".
  const webhook = page.getByTestId('ticket-webhook');
  await webhook.getByRole('button', { name: 'Rotate webhook secret' }).click();
  const secret = (await webhook.getByTestId('secret-value').textContent())?.trim() ?? '';
  expect(secret.length).toBeGreaterThan(20);
  await expect(webhook.getByTestId('ticket-webhook-state')).toContainText('set (rotated');
  await expectAccessible(page, 'project ticket tracker webhook secret');
  await screenshot(page, 'project-tickets-secret');
  await page.reload();
  await expect(page.getByTestId('ticket-webhook-state')).toContainText('set (rotated', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('secret-value')).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  const after = await api.get<{ webhook: { secret_set: boolean } }>(
    `/api/v1/projects/${project.id}/ticket-provider/config`,
  );
  expect(after.webhook.secret_set).toBe(true);
  expect(JSON.stringify(after)).not.toContain(secret);
  await screenshot(page, 'project-tickets');

  // A viewer reads the settings; saving and rotating are refused by the API (shown localized).
  const email = `${unique('viewer')}@findings-web.test`;
  const password = 'Viewer-password-1A';
  const user = await api.post<{ id: string }>('/api/v1/admin/users', {
    email,
    password,
    is_admin: false,
  });
  const member = await api.request.put(
    `${webUrl()}/api/v1/projects/${project.id}/members/${user.id}`,
    { headers: api.authHeaders(), data: { role: 'viewer' } },
  );
  expect(member.ok(), await member.text()).toBe(true);
  const context = await browser.newContext();
  try {
    const viewer = await context.newPage();
    await viewer.goto(`${webUrl()}/login`);
    await viewer.getByLabel('Login (e-mail)').fill(email);
    await viewer.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await viewer.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(viewer.getByTestId('current-user')).toHaveText(email);
    await viewer.goto(`${webUrl()}/projects/${project.id}`);
    const theirs = viewer
      .getByTestId('project-tickets')
      .getByRole('form', { name: 'Ticket tracker settings' });
    await expect(theirs.getByRole('textbox', { name: /^Default target/ })).toHaveValue('SEC', {
      timeout: 60_000,
    });
    await theirs.getByRole('textbox', { name: /^Default target/ }).fill('OTHER');
    await theirs.getByRole('button', { name: 'Save' }).click();
    await expect(theirs.getByTestId('api-error')).toContainText('access_denied');
    const theirWebhook = viewer.getByTestId('ticket-webhook');
    await theirWebhook.getByRole('button', { name: 'Rotate webhook secret' }).click();
    await expect(theirWebhook.getByTestId('api-error')).toContainText('access_denied');
    await expect(theirWebhook.getByTestId('secret-value')).toHaveCount(0);
  } finally {
    await context.close();
  }
  const unchanged = await api.get<{ default_target: string }>(
    `/api/v1/projects/${project.id}/ticket-provider/config`,
  );
  expect(unchanged.default_target).toBe('SEC');
});
