import { expect, screenshot, signIn, test, unique, webUrl } from './support/fixtures';

test('project settings (deadline days per severity, auto-verify) and members with roles', async ({
  page,
  api,
}) => {
  const project = await api.project(unique('settings'));
  const email = `${unique('analyst')}@findings-web.test`;
  const user = await api.post<{ id: string }>('/api/v1/admin/users', {
    email,
    password: 'Analyst-password-1A',
    is_admin: false,
  });
  await signIn(page);
  await page.goto(`${webUrl()}/projects/${project.id}`);

  const settings = page.getByRole('form', { name: 'Settings', exact: true });
  await expect(settings.getByRole('textbox', { name: 'HIGH' })).toHaveValue('14');
  await settings.getByRole('textbox', { name: 'HIGH' }).fill('10');
  await settings.getByRole('textbox', { name: 'INFO' }).fill('120');
  await settings.getByRole('checkbox').check();
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  const saved = await api.get<{
    remediation_days: Record<string, number | null>;
    auto_verify_fixes: boolean;
  }>(`/api/v1/projects/${project.id}/settings`);
  expect(saved.remediation_days).toMatchObject({ HIGH: 10, INFO: 120, CRITICAL: 7 });
  expect(saved.auto_verify_fixes).toBe(true);

  // Members are picked by name or e-mail, never by internal id (issue 25).
  await page.getByRole('combobox', { name: 'User (name or e-mail)' }).fill(email);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const role = page.getByRole('combobox', { name: /^Role analyst-/ });
  await expect(role).toHaveValue('analyst');
  await role.click();
  await page.getByRole('option', { name: 'viewer', exact: true }).click();
  await expect
    .poll(
      async () =>
        (
          await api.get<{ user_id: string; role: string }[]>(
            `/api/v1/projects/${project.id}/members`,
          )
        ).find((m) => m.user_id === user.id)?.role,
    )
    .toBe('viewer');
  await screenshot(page, 'project-settings-members');
});
