import { admin, expect, expectAccessible, screenshot, test, webUrl } from './support/fixtures';
import { SSO_ACCOUNTS } from './support/accounts';

test.describe('sign-in', () => {
  test('local sign-in: a refusal shown with its code, the session survives a reload, sign-out ends it', async ({
    page,
  }) => {
    await page.goto(`${webUrl()}/requests`);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Sign in with single sign-on' })).toBeVisible();
    await expectAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in');

    await page.getByLabel('E-mail').fill(admin.email());
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong-password-1A');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByTestId('api-error')).toContainText('invalid_credentials');

    // Signed in, the page asked for first.
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(admin.password());
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByTestId('current-user')).toHaveText(admin.email());
    await expect(page).toHaveURL(/\/requests$/);
    await expect(page.getByTestId('current-role')).toHaveText('Administrator');
    await expect(page.getByTestId('version-mismatch')).toHaveCount(0);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'certsvc_refresh_token')?.httpOnly).toBe(true);

    // The access token is in memory only: a reload signs in again through the cookie.
    await page.reload();
    await expect(page.getByTestId('current-user')).toHaveText(admin.email());
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto(`${webUrl()}/dashboard`);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('single sign-on through the test OpenID provider (PKCE, state, nonce) signs the person in with their role', async ({
    page,
    api,
  }) => {
    const account = SSO_ACCOUNTS['sso-approver'];
    // Known to the service with a role before the first SSO sign-in (matched by e-mail).
    await api.person(account.email, ['cert-approver']).catch(() => undefined);
    const config = await api.send<{ oidc: { authorization_endpoint: string } }>(
      'GET',
      '/api/v1/auth/config',
    );
    // The provider's test login takes the account from login_hint (no login form): the browser
    // plays the person choosing it.
    let authorization: URL | undefined;
    const endpoint = config.oidc.authorization_endpoint;
    await page.route(
      (url) => url.href.startsWith(`${endpoint}?`),
      async (route) => {
        authorization = new URL(route.request().url());
        const withHint = new URL(authorization);
        withHint.searchParams.set('login_hint', 'sso-approver');
        await route.continue({ url: withHint.href });
      },
    );
    await page.goto(`${webUrl()}/login`);
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await expect(page.getByTestId('current-user')).toHaveText(account.email);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('current-role')).toHaveText('Approver');
    expect(authorization?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization?.searchParams.get('redirect_uri')).toBe(`${webUrl()}/auth/callback`);
    expect(authorization?.searchParams.get('nonce')).toBeTruthy();
    await screenshot(page, 'sso-signed-in');

    // A callback that does not belong to a sign-in started in this tab is refused.
    await page.goto(`${webUrl()}/auth/callback?code=forged&state=forged`);
    await expect(page.getByTestId('api-error')).toContainText('does not belong to a sign-in');
  });
});
