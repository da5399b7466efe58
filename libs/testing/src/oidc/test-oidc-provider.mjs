// A real OpenID provider for the e2e tests: oidc-provider on loopback, with the keys, clients
// and accounts the test hands over (TEST_OIDC_SETTINGS), and a login without a form: the
// `login_hint` of the authorization request names the account that signs in.
// Started as a child process by test-identity-provider.ts, so Jest never loads this ESM code.
//
//   PUT /__control/jwks  {keys: [...]}   replaces the signing keys (key rotation)
import http from 'node:http';
import Provider from 'oidc-provider';

const settings = JSON.parse(process.env.TEST_OIDC_SETTINGS ?? '{}');
let provider = build(settings.jwks);

function build(jwks) {
  const built = new Provider(settings.issuer, {
    clients: settings.clients,
    jwks,
    cookies: { keys: ['test-oidc-provider-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Scope claims in the ID token itself, as most corporate providers issue them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    findAccount: (_ctx, id) => {
      const account = settings.accounts[id];
      return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Every client is trusted with every scope it asks for: no consent screen.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope(ctx.oidc.params.scope ?? 'openid');
      await grant.save();
      return grant;
    },
  });
  built.on('server_error', (_ctx, error) => console.error('oidc-provider server_error', error));
  return built;
}

async function interaction(req, res) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'consent') {
    // Native clients (RFC 8252 loopback redirects) are asked for consent at every sign-in;
    // the test user gives it, for the scopes asked.
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({
          clientId: details.params.client_id,
          accountId: details.session.accountId,
        });
    grant.addOIDCScope(details.params.scope ?? 'openid');
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
    return;
  }
  const accountId = details.params.login_hint;
  const result = settings.accounts[accountId]
    ? { login: { accountId } }
    : { error: 'access_denied', error_description: 'unknown test account' };
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
}

async function control(req, res) {
  let body = '';
  for await (const chunk of req) body += chunk;
  if (req.method === 'PUT' && req.url === '/__control/jwks') {
    provider = build(JSON.parse(body));
    res.writeHead(204).end();
    return;
  }
  res.writeHead(404).end();
}

const server = http.createServer((req, res) => {
  const handle = req.url.startsWith('/interaction/')
    ? interaction(req, res)
    : req.url.startsWith('/__control/')
      ? control(req, res)
      : provider.callback()(req, res);
  Promise.resolve(handle).catch((error) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});

server.listen(Number(settings.port), '127.0.0.1', () => {
  process.stdout.write(`ready ${server.address().port}\n`);
});

process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
