/** The SPA's client at the test OpenID provider, and the accounts that can sign in there. */
export const SPA_CLIENT_ID = 'certificate-web';

export const SSO_ACCOUNTS = {
  'sso-approver': { email: 'sso.approver@certificate-web.test', email_verified: true },
} satisfies Record<string, { email: string; email_verified: boolean }>;
