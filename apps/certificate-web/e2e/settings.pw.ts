import { admin, Api, expect, expectAccessible, screenshot, signIn, test } from './support/fixtures';

interface SourceAuth {
  mode: string;
  min_agent_version: string | null;
}
interface SystemSettings {
  k8s_prompt_step: string;
  keyholder_allowed_networks: string[];
}

let sourceAuth: SourceAuth;
let system: SystemSettings;

test.beforeAll(async ({ request }) => {
  const api = await new Api(request).as(admin.email(), admin.password());
  sourceAuth = await api.send('GET', '/api/v1/settings/enroll-source-auth');
  system = await api.send('GET', '/api/v1/settings/system');
});

test.afterAll(async ({ request }) => {
  const api = await new Api(request).as(admin.email(), admin.password());
  await api.send('PUT', '/api/v1/settings/enroll-source-auth', {
    mode: sourceAuth.mode,
    ...(sourceAuth.min_agent_version ? { min_agent_version: sourceAuth.min_agent_version } : {}),
  });
  await api.send('PUT', '/api/v1/settings/system', {
    k8s_prompt_step: system.k8s_prompt_step,
    keyholder_allowed_networks: system.keyholder_allowed_networks,
  });
});

test('an administrator changes the source-auth step and a system setting; both are kept after a reload', async ({
  page,
  api,
}) => {
  await signIn(page, admin.email(), admin.password());
  await page.getByRole('link', { name: 'Settings' }).click();
  const section = page.getByTestId('settings-source-auth');
  await section.getByRole('combobox', { name: 'Step' }).click();
  await page.getByRole('option', { name: 'version floor — older agents refused' }).click();
  await section.getByRole('textbox', { name: 'Minimum agent version' }).fill('2.3.0');
  await section.getByRole('button', { name: 'Save source authentication' }).click();
  await expect(section.getByRole('status')).toHaveText('Saved.');

  const systemSection = page.getByTestId('settings-system');
  await systemSection.getByRole('combobox', { name: 'Kubernetes prompt on issuance' }).click();
  await page.getByRole('option', { name: 'ask_every_time' }).click();
  await systemSection
    .getByRole('textbox', { name: 'Key-holder allowed networks' })
    .fill('10.20.0.0/16\n127.0.0.1');
  await systemSection.getByRole('button', { name: 'Save system settings' }).click();
  await expect(systemSection.getByRole('status')).toHaveText('Saved.');
  // A refusal is shown with the service's envelope.
  await section.getByRole('textbox', { name: 'Minimum agent version' }).fill('not a version');
  await section.getByRole('button', { name: 'Save source authentication' }).click();
  await expect(section.getByTestId('api-error')).toBeVisible();

  await page.reload();
  await expect(section.getByRole('combobox', { name: 'Step' })).toHaveValue(
    'version floor — older agents refused',
  );
  await expect(section.getByRole('textbox', { name: 'Minimum agent version' })).toHaveValue(
    '2.3.0',
  );
  await expect(
    systemSection.getByRole('combobox', { name: 'Kubernetes prompt on issuance' }),
  ).toHaveValue('ask_every_time');
  await expect(
    systemSection.getByRole('textbox', { name: 'Key-holder allowed networks' }),
  ).toHaveValue('10.20.0.0/16\n127.0.0.1');
  await expect(section).toContainText(`by ${admin.email()}`);
  const stored = await api.send<SourceAuth>('GET', '/api/v1/settings/enroll-source-auth');
  expect(stored).toMatchObject({ mode: 'version_floor', min_agent_version: '2.3.0' });
  await expectAccessible(page, 'settings');
  await screenshot(page, 'settings');
});
