import {
  admin,
  expect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  webUrl,
} from './support/fixtures';

test.describe('sign-in', () => {
  test('local login, the session survives a reload through the refresh cookie, logout ends it', async ({
    page,
  }) => {
    await page.goto(`${webUrl()}/findings`);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await expectAccessible(page, 'sign-in');

    await page.getByLabel('Login (e-mail)').fill(admin.email());
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong-password-1A');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByTestId('api-error')).toContainText('invalid_credentials');
    await screenshot(page, 'sign-in-refused');

    await signIn(page);
    await expect(page).toHaveURL(/\/findings$/);
    await expect(page.getByTestId('version-mismatch')).toHaveCount(0);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'findsvc_refresh')?.httpOnly).toBe(true);

    // The access token is in memory only: a reload signs in again through the cookie.
    await page.reload();
    await expect(page.getByTestId('current-user')).toHaveText(admin.email());
    await screenshot(page, 'signed-in');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto(`${webUrl()}/findings`);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('SSO buttons come from /auth/config; a backend of another X.Y is warned about', async ({
    page,
  }) => {
    // The test API has no SSO provider: the page shows exactly what /auth/config lists.
    await page.goto(`${webUrl()}/login`);
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: /^Sign in with / })).toHaveCount(0);

    // Same page against a backend that reports another major.minor and one SSO provider.
    await page.route('**/api/v1/version', async (route) => {
      const real = await route.fetch();
      const body = (await real.json()) as { data: { version: string } };
      body.data.version = `99.${body.data.version.split('.').slice(1).join('.')}`;
      await route.fulfill({ response: real, json: body });
    });
    await page.route('**/api/v1/auth/config', async (route) => {
      const real = await route.fetch();
      const body = (await real.json()) as { data: { providers: unknown[] } };
      body.data.providers = [
        {
          id: 'corp',
          name: 'Corporate SSO',
          type: 'oidc',
          login_url: '/api/v1/auth/sso/corp/login',
        },
      ];
      await route.fulfill({ response: real, json: body });
    });
    await page.reload();
    await expect(page.getByTestId('version-mismatch')).toContainText('the API is 99.');
    await expect(page.getByRole('link', { name: 'Sign in with Corporate SSO' })).toHaveAttribute(
      'href',
      '/api/v1/auth/sso/corp/login',
    );
    await expectAccessible(page, 'sign-in with warning');
    await screenshot(page, 'sign-in-version-mismatch');
  });
});
