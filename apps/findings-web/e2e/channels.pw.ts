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
 * A notification channel is a native plugin (from a source with `allows_native`); the set-up
 * seeds the installed row as the API's own e2e and fuzz seeds do (`maxru-channel`, enabled,
 * with per-project settings `chat_id` and the secret `access_token`): the channel routes load
 * no plugin code.
 */
async function seedChannel(): Promise<string> {
  const manifest = Buffer.from(
    JSON.stringify({
      id: 'maxru-channel',
      version: '1.0.0',
      capabilities: ['notification_channel'],
      runtime: 'native',
      wit_version: '0.1.0',
      min_service_version: '>=0.33',
      allowed_hosts: [],
      settings: [
        { name: 'chat_id', type: 'string', per_project: true, description: 'MAX chat id' },
        { name: 'access_token', type: 'string', secret: true, per_project: true },
        { name: 'api_base', type: 'url' },
      ],
      artifact_sha256: '1'.repeat(64),
    }),
  );
  const [row] = await sql<{ id: string }>(
    `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
            artifact_sha256, manifest, capabilities)
     VALUES ('sideload', 'maxru-channel', 'native', true, '1.0.0', $1, $2, '{notification_channel}')
     ON CONFLICT (catalog_plugin_id) DO UPDATE SET enabled = true
     RETURNING id`,
    ['1'.repeat(64), manifest],
  );
  return row?.id ?? '';
}

test('notification channels of a project: settings from the channel schema, a write-only secret, read-only without manage_notifications', async ({
  page,
  api,
  browser,
}) => {
  const pluginId = await seedChannel();
  const project = await api.project(unique('channels'));
  await signIn(page);
  await page.goto(`${webUrl()}/projects/${project.id}`);
  await expect(page.getByRole('heading', { name: 'Notification channels' })).toBeVisible();
  const channel = page.getByTestId('channel-maxru-channel');
  await expect(channel.getByTestId('channel-state')).toHaveText('not configured');
  const form = channel.getByRole('form', { name: 'Notification channel maxru-channel' });
  // Only the per-project settings (and the common ones), not the installation's `api_base`.
  await expect(form.getByLabel('api_base')).toHaveCount(0);
  await form.getByRole('checkbox', { name: 'enabled' }).check();
  await form.getByRole('textbox', { name: /^chat_id/ }).fill('-100777');
  await form.getByLabel('access_token').fill('max-very-secret-token');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(channel.getByTestId('channel-saved')).toBeVisible();
  await expect(channel.getByTestId('channel-state')).toHaveText('on');
  await expectAccessible(page, 'project channels');

  await page.reload();
  const reloaded = page
    .getByTestId('channel-maxru-channel')
    .getByRole('form', { name: 'Notification channel maxru-channel' });
  await expect(reloaded.getByRole('textbox', { name: /^chat_id/ })).toHaveValue('-100777');
  await expect(reloaded.getByRole('checkbox', { name: 'enabled' })).toBeChecked();
  await expect(reloaded.getByLabel('access_token')).toHaveValue('');
  await expect(reloaded.getByLabel('access_token')).toHaveAttribute('placeholder', /^set/);
  await expect(reloaded.getByTestId('secrets-set')).toContainText('access_token');
  expect(await page.content()).not.toContain('max-very-secret-token');

  // An empty secret keeps the stored one; the non-secret change is saved.
  await reloaded.getByRole('textbox', { name: /^chat_id/ }).fill('-100888');
  await reloaded.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('channel-saved')).toBeVisible();
  const stored = await api.get<{
    settings: Record<string, unknown>;
    secret_settings_set: string[];
  }>(`/api/v1/projects/${project.id}/plugin-channels/${pluginId}/config`);
  expect(stored.settings).toMatchObject({ enabled: true, chat_id: '-100888' });
  expect(stored.secret_settings_set).toEqual(['access_token']);
  expect(JSON.stringify(stored)).not.toContain('max-very-secret-token');
  await screenshot(page, 'project-channels');

  // A viewer of the project reads the settings; saving is refused by the API (shown localized).
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
      .getByTestId('channel-maxru-channel')
      .getByRole('form', { name: 'Notification channel maxru-channel' });
    await expect(theirs.getByRole('textbox', { name: /^chat_id/ })).toHaveValue('-100888');
    await theirs.getByRole('textbox', { name: /^chat_id/ }).fill('-1');
    await theirs.getByRole('button', { name: 'Save' }).click();
    await expect(theirs.getByTestId('api-error')).toContainText('access_denied');
    await screenshot(viewer, 'project-channels-read-only');
  } finally {
    await context.close();
  }
  const after = await api.get<{ settings: Record<string, unknown> }>(
    `/api/v1/projects/${project.id}/plugin-channels/${pluginId}/config`,
  );
  expect(after.settings['chat_id']).toBe('-100888');
});

/** A sealed notification of the project and its deliveries to the channel, as the worker leaves them. */
async function seedDeliveries(projectId: string, pluginId: string): Promise<string> {
  const [notification] = await sql<{ id: string }>(
    `INSERT INTO notifications (id, project_id, kind, state, counts, items, finding_count,
            opened_at, last_added_at, sealed_at)
     VALUES (gen_random_uuid(), $1, 'new_findings', 'sealed', '{"HIGH": 1}', '[]', 1,
             now() - interval '2 hours', now() - interval '2 hours', now() - interval '2 hours')
     RETURNING id`,
    [projectId],
  );
  const [older] = await sql<{ id: string }>(
    `INSERT INTO notifications (id, project_id, kind, state, counts, items, finding_count,
            opened_at, last_added_at, sealed_at)
     VALUES (gen_random_uuid(), $1, 'sla_breached', 'sealed', '{"HIGH": 1}', '[]', 1,
             now() - interval '3 hours', now() - interval '3 hours', now() - interval '3 hours')
     RETURNING id`,
    [projectId],
  );
  const insert = `INSERT INTO notification_deliveries (id, notification_id, project_id,
            installed_plugin_id, idempotency_key, threshold, state, attempts, next_attempt_at,
            last_error_code, last_error_message, created_at, updated_at, delivered_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $9, '{"min_severity": "INFO"}', $4, $5,
             now() - interval '1 hour', $6, $7, now() - interval '2 hours',
             now() - interval '1 hour', $8)
     RETURNING id`;
  const [failed] = await sql<{ id: string }>(insert, [
    notification?.id,
    projectId,
    pluginId,
    'failed',
    3,
    'rejected',
    'chat not found (HTTP 400 from the MAX API)',
    null,
    `ntf:${notification?.id ?? ''}:${pluginId}`,
  ]);
  await sql(insert, [
    older?.id,
    projectId,
    pluginId,
    'delivered',
    1,
    null,
    null,
    new Date(),
    `ntf:${older?.id ?? ''}:${pluginId}`,
  ]);
  return failed?.id ?? '';
}

test('channel deliveries on the project page: counts of the last day, the last failure, a failed delivery retried by the project admin; a viewer sees no failed list', async ({
  page,
  api,
  browser,
}) => {
  const pluginId = await seedChannel();
  const project = await api.project(unique('deliveries'));
  const deliveryId = await seedDeliveries(project.id, pluginId);
  // The project page loads about ten queries: on the shared 2-core machine it takes a while.
  test.slow();
  await signIn(page);
  await page.goto(`${webUrl()}/projects/${project.id}`);
  await expect(page.getByRole('heading', { name: 'Notification channels' })).toBeVisible({
    timeout: 60_000,
  });
  const channel = page.getByTestId('channel-maxru-channel');
  await expect(channel.getByTestId('channel-delivery-counts')).toHaveText(
    'Deliveries: 0 pending, 1 delivered and 1 failed in 24 h',
  );
  await expect(channel.getByTestId('channel-last-failure')).toContainText(
    'chat not found (HTTP 400 from the MAX API)',
  );
  const failed = page.getByTestId('failed-deliveries');
  await expect(failed.getByRole('heading', { name: 'Failed deliveries' })).toBeVisible();
  const row = failed.getByTestId(`delivery-${deliveryId}`);
  await expect(row).toContainText('maxru-channel');
  await expect(row).toContainText('New findings');
  await expect(row.getByTestId('delivery-reason')).toContainText('chat not found');
  await expect(row.getByTestId('delivery-reason')).toContainText('rejected');
  // Only failed deliveries are listed, not the delivered one.
  await expect(failed.locator('tbody tr')).toHaveCount(1);
  await expectAccessible(page, 'channel deliveries');
  await screenshot(page, 'channel-deliveries-failed');

  await row.getByRole('button', { name: /^Retry the delivery to maxru-channel/ }).click();
  await expect(failed.getByTestId('delivery-retried')).toHaveText(
    'The delivery to maxru-channel is queued again.',
  );
  await expect(failed.getByTestId(`delivery-${deliveryId}`)).toHaveCount(0);
  await expect(failed.getByText('No failed deliveries.')).toBeVisible();
  await expect(channel.getByTestId('channel-last-failure')).toHaveCount(0);
  const [stored] = await sql<{ state: string; attempts: number }>(
    `SELECT state, attempts FROM notification_deliveries WHERE id = $1`,
    [deliveryId],
  );
  // Pending again (or already taken by the worker: this project has no channel settings, so
  // the worker cancels it) — not failed, attempts counted anew.
  expect(stored?.state).not.toBe('failed');
  expect(stored?.attempts).toBe(0);
  await screenshot(page, 'channel-deliveries-retried');

  // A viewer reads the channel's counts; the failed list (manage_notifications) is not shown.
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
    await expect(
      viewer.getByTestId('channel-maxru-channel').getByTestId('channel-delivery-counts'),
    ).toContainText('1 delivered', { timeout: 60_000 });
    await expect(viewer.getByTestId('failed-deliveries')).toHaveCount(0);
    await expect(viewer.getByTestId('api-error')).toHaveCount(0);
  } finally {
    await context.close();
  }
});
