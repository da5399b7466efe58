import type { Browser, Page } from '@playwright/test';
import { startNetboxStandIn } from './support/netbox-stand-in';
import {
  expect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
  type Api,
} from './support/fixtures';

const NETBOX_TOKEN = 'nb-e2e-0123456789abcdef0123456789abcdef';

/** A service account with `upload_report` on the project: the scanner that proposes. */
async function scannerKey(api: Api, projectId: string): Promise<string> {
  const account = await api.post<{ id: string; api_key: string }>(
    '/api/v1/admin/service-accounts',
    { name: unique('scanner') },
  );
  await api.post(`/api/v1/admin/service-accounts/${account.id}/permissions`, {
    permission: 'upload_report',
    level: 'project',
    project_id: projectId,
  });
  return account.api_key;
}

async function propose(api: Api, key: string, projectId: string, value: string): Promise<void> {
  const res = await api.request.post(`${webUrl()}/api/v1/projects/${projectId}/scope/proposals`, {
    headers: { 'X-API-Key': key },
    data: { value, comment: 'seen by the e2e scanner' },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function exportText(api: Api, key: string, projectId: string): Promise<string[]> {
  const res = await api.request.get(
    `${webUrl()}/api/v1/projects/${projectId}/scope/export?format=text`,
    { headers: { 'X-API-Key': key } },
  );
  expect(res.status()).toBe(200);
  return (await res.text()).split('\n').filter((l) => l !== '');
}

/** A viewer of the project signed in in a browser context of its own. */
async function viewerPage(browser: Browser, api: Api, projectId: string): Promise<Page> {
  const email = `${unique('scope-viewer')}@findings-web.test`;
  const password = 'Viewer-password-1A';
  const user = await api.post<{ id: string }>('/api/v1/admin/users', {
    email,
    password,
    is_admin: false,
  });
  const member = await api.request.put(
    `${webUrl()}/api/v1/projects/${projectId}/members/${user.id}`,
    { headers: api.authHeaders(), data: { role: 'viewer' } },
  );
  expect(member.ok(), await member.text()).toBe(true);
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${webUrl()}/login`);
  await page.getByLabel('Login (e-mail)').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('current-user')).toHaveText(email);
  return page;
}

test('scan perimeter: entries (IDN both ways, overlap refused), a scanner’s proposals confirmed and rejected, the export shows the confirmed one', async ({
  page,
  api,
}) => {
  const project = await api.project(unique('scope'));
  const key = await scannerKey(api, project.id);
  await signIn(page);

  // The screen is linked from the project page and from the navigation.
  await page.goto(`${webUrl()}/projects/${project.id}`);
  await page.getByRole('main').getByRole('link', { name: 'Scan perimeter', exact: true }).click();
  await expect(page).toHaveURL(`${webUrl()}/projects/${project.id}/scope`);
  await expect(
    page.getByRole('heading', { name: `Scan perimeter: ${project.name}` }),
  ).toBeVisible();
  await expect(page.getByText('No entries yet: the perimeter is empty.')).toBeVisible();

  // Add includes (one per line) and an exclude.
  const add = page.getByRole('form', { name: 'Add entries' });
  await add.getByLabel('Values, one per line').fill('10.20.0.0/16\n*.Пример.рф\nexample.org');
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(add.getByTestId('scope-added')).toHaveText('Added: 3');
  await add.getByLabel('Values, one per line').fill('10.20.5.0/24');
  await add.getByText('exclude', { exact: true }).click();
  await add.getByLabel('Comment').fill('lab network');
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(add.getByTestId('scope-added')).toHaveText('Added: 1');
  const entries = page.getByTestId('scope-entry');
  await expect(entries).toHaveCount(4);
  const idn = entries.filter({ hasText: '*.пример.рф' });
  await expect(idn.getByTestId('scope-value')).toHaveText('*.пример.рф');
  await expect(idn.getByTestId('scope-value-ascii')).toContainText('*.xn--e1afmkfd.xn--p1ai');
  await expect(
    entries.filter({ hasText: '10.20.5.0/24' }).getByTestId('scope-entry-mode'),
  ).toHaveText('exclude');

  // An include overlapping an include: the API's localized refusal names the entry.
  await add.getByLabel('Values, one per line').fill('10.20.1.0/24');
  await add.getByText('include', { exact: true }).click();
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(add.getByTestId('api-error')).toContainText('overlaps the entry "10.20.0.0/16"');
  await expect(add.getByTestId('api-error')).toContainText('scope_entry_overlaps');
  await expect(entries).toHaveCount(4);

  // A scanner proposes two objects: pending, and not in the export.
  await propose(api, key, project.id, 'app.example.net');
  await propose(api, key, project.id, '198.51.100.0/28');
  expect(await exportText(api, key, project.id)).not.toContain('app.example.net');
  await page.reload();
  const proposals = page.getByTestId('scope-proposal');
  await expect(proposals).toHaveCount(2);
  await expect(page.getByTestId('scope-export')).not.toContainText('app.example.net');
  await expectAccessible(page, 'scope page');
  await screenshot(page, 'scope');

  await page.getByRole('button', { name: 'Confirm app.example.net' }).click();
  await expect(proposals).toHaveCount(1);
  await page.getByRole('button', { name: 'Reject 198.51.100.0/28' }).click();
  await expect(page.getByText('No proposals here.')).toBeVisible();
  await expect(entries).toHaveCount(5);
  await expect(entries.filter({ hasText: 'app.example.net' })).toContainText('proposal');
  // The export shows the confirmed one, not the rejected one; the exclude is carved out.
  const exported = page.getByTestId('scope-export');
  await expect(exported).toContainText('app.example.net');
  await expect(exported).not.toContainText('198.51.100.0');
  await expect(exported).toContainText('10.20.6.0/23');
  expect(await exportText(api, key, project.id)).toEqual(
    expect.arrayContaining(['app.example.net', '*.xn--e1afmkfd.xn--p1ai', '10.20.0.0/22']),
  );
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'all' }).click();
  await expect(page.getByTestId('proposal-status')).toHaveText(['confirmed', 'rejected']);
});

test('scan perimeter: a NetBox import from a loopback stand-in (wrong token, then counts), delete, read-only for a viewer', async ({
  page,
  api,
  browser,
}) => {
  const project = await api.project(unique('scope-import'));
  await api.post(`/api/v1/projects/${project.id}/scope/entries`, {
    entries: [{ value: '10.20.0.0/16' }, { value: 'example.org' }],
  });
  await signIn(page);
  await page.goto(`${webUrl()}/projects/${project.id}/scope`);
  const entries = page.getByTestId('scope-entry');
  await expect(entries).toHaveCount(2);

  // Import from a NetBox stand-in on loopback: a wrong token first (localized error), then the right one.
  const netbox = await startNetboxStandIn(NETBOX_TOKEN, {
    prefixes: ['192.0.2.0/24', '10.20.9.0/24', '0.0.0.0/0'],
    addresses: ['203.0.113.7/24', '203.0.113.8/24', '203.0.113.9/24'],
  });
  try {
    const form = page.getByRole('form', { name: 'Import from NetBox' });
    await form.getByLabel('NetBox address').fill(netbox.url);
    await form.getByLabel('API token').fill('not-the-token');
    await form.getByRole('button', { name: 'Import' }).click();
    await expect(form.getByTestId('api-error')).toContainText('refused the token (HTTP 403)');
    await expect(form.getByTestId('api-error')).toContainText('scope_ipam_token_refused');
    await expect(form.getByLabel('API token')).toHaveValue('');
    await form.getByLabel('API token').fill(NETBOX_TOKEN);
    await form.getByRole('button', { name: 'Import' }).click();
    await expect(form.getByTestId('import-result')).toContainText(
      'Imported: 4 added, 0 already present, 1 overlapping an entry, 1 refused (read 3 prefixes and 3 addresses).',
    );
    await expect(form.getByTestId('import-skipped')).toContainText('0.0.0.0/0');
    await expect(form.getByLabel('API token')).toHaveValue('');
    expect(netbox.authorizations).toContain(`Token ${NETBOX_TOKEN}`);
    expect(await page.content()).not.toContain(NETBOX_TOKEN);
    await expect(entries).toHaveCount(6);
    await expect(page.getByTestId('scope-export')).toContainText('203.0.113.8');
    await screenshot(page, 'scope-import');
  } finally {
    await netbox.close();
  }

  // Delete an entry.
  await page.getByRole('button', { name: 'Delete example.org' }).click();
  await expect(entries).toHaveCount(5);
  await expect(page.getByTestId('scope-export')).not.toContainText('example.org');

  // A viewer reads the perimeter without the changing controls.
  const viewer = await viewerPage(browser, api, project.id);
  try {
    await viewer.goto(`${webUrl()}/scope`);
    await viewer.getByRole('link', { name: project.name }).click();
    await expect(viewer.getByTestId('scope-read-only')).toBeVisible();
    await expect(viewer.getByTestId('scope-entry')).toHaveCount(5);
    await expect(viewer.getByRole('form', { name: 'Add entries' })).toHaveCount(0);
    await expect(viewer.getByRole('form', { name: 'Import from NetBox' })).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: /^Delete / })).toHaveCount(0);
    await screenshot(viewer, 'scope-read-only');
  } finally {
    await viewer.context().close();
  }
});
