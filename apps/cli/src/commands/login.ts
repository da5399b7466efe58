import createClient from 'openapi-fetch';
import type { paths as CertificatePaths } from '../api/certificates.gen';
import type { paths as FindingsPaths } from '../api/findings.gen';
import { type Command, type Context, type OptionValues, stringOption } from '../command';
import type { Service, StoredSession } from '../config/store';
import { CliError, EXIT, usageError } from '../errors';
import { checkUrl, ENV, must } from '../http/clients';
import { networkError, responseError } from '../http/errors';
import { expiresAt, findingsRefreshCookie } from '../http/refresh';
import { readPassword } from './password';
import { ssoSignIn } from './sso';

function service(word: string): Service {
  if (word === 'findings' || word === 'certificates') return word;
  throw usageError(`unknown service: ${word} (findings or certificates)`);
}

/** fetch without credentials: network failures and error answers as CliErrors. */
function anonymousFetch(svc: Service, url: string) {
  return async (req: Request): Promise<Response> => {
    let res: Response;
    try {
      res = await fetch(req);
    } catch (error) {
      throw networkError(svc, url, error);
    }
    if (res.status === 401) {
      await res.body?.cancel();
      throw new CliError(
        EXIT.auth,
        'sign-in refused: wrong email or password',
        'invalid_credentials',
      );
    }
    if (!res.ok) throw await responseError(svc, res);
    return res;
  };
}

async function signIn(svc: Service, url: string, email: string, password: string) {
  const fetch = anonymousFetch(svc, url);
  if (svc === 'findings') {
    const api = createClient<FindingsPaths>({ baseUrl: url, fetch });
    const result = await api.POST('/api/v1/auth/local/login', { body: { login: email, password } });
    const data = must(result).data;
    return {
      url,
      email,
      access_token: data.access_token,
      refresh_token: findingsRefreshCookie(result.response),
      expires_at: expiresAt(data.expires_in),
    } satisfies StoredSession;
  }
  const api = createClient<CertificatePaths>({ baseUrl: url, fetch });
  const data = must(await api.POST('/api/v1/auth/local/login', { body: { email, password } }));
  return {
    url,
    email,
    access_token: data.access_token,
    refresh_token: data.refresh_token,
    expires_at: expiresAt(data.expires_in),
  } satisfies StoredSession;
}

export const login: Command = {
  path: ['login'],
  summary:
    'Sign in to a service (password, or single sign-on in a browser); stores the session (0600)',
  usage:
    '<findings|certificates> [--url <url>] [--email <email>] [--password-stdin] ' +
    '| findings --sso [--provider <id>] [--no-browser] [--timeout <seconds>]',
  options: {
    url: { type: 'string' },
    email: { type: 'string' },
    'password-stdin': { type: 'boolean' },
    sso: { type: 'boolean' },
    provider: { type: 'string' },
    'no-browser': { type: 'boolean' },
    timeout: { type: 'string' },
  },
  positionals: { min: 1, max: 1 },
  argValues: ['findings', 'certificates'],
  help: `Options:
  --url <url>         the service's base URL (default: ${ENV.findings.url} or
                      ${ENV.certificates.url}, else the URL of the stored session)
  --email <email>     the account (default: the stored session's)
  --password-stdin    read the password from standard input (CI); else PLATFORM_PASSWORD,
                      else a prompt on a terminal
  --sso               findings only: single sign-on in a browser. The CLI listens on
                      127.0.0.1:<random port>, opens the provider's sign-in page (the address
                      is printed on stderr too) and receives the browser when it comes back
  --provider <id>     the sign-on provider (default: the only one the service lists)
  --no-browser        only print the address (open it in any browser on this machine)
  --timeout <s>       how long to wait for the browser (default 300; then exit 7)

The session (access and refresh token) is written to $XDG_CONFIG_HOME/platform/credentials.json
(mode 0600, directory 0700). Machines skip login: with ${ENV.findings.key} (a service-account
key sa_...) or ${ENV.certificates.key} (a wca_... token) set, every command uses that key.`,
  async run(ctx: Context, values, [word]) {
    const svc = service(word);
    if (values.sso !== true) {
      for (const name of ['provider', 'no-browser', 'timeout']) {
        if (values[name] !== undefined) throw usageError(`--${name} goes with --sso`);
      }
    }
    const stored = await ctx.store.session(svc);
    const rawUrl = stringOption(values, 'url') ?? ctx.env[ENV[svc].url] ?? stored?.url;
    if (!rawUrl) throw usageError(`--url is required (or set ${ENV[svc].url})`);
    const email = stringOption(values, 'email') ?? stored?.email;
    if (!email && values.sso !== true) throw usageError('--email is required (or --sso)');
    const url = checkUrl(rawUrl);
    if (values.sso === true) return loginSso(ctx, svc, url, values);
    const password = await readPassword(ctx, values['password-stdin'] === true);
    const session = await signIn(svc, url, email as string, password);
    await ctx.store.save(svc, session);
    if (ctx.json)
      ctx.out(JSON.stringify({ service: svc, url, email, expires_at: session.expires_at }));
    else ctx.out(`Signed in to ${url} as ${email} (session stored in ${ctx.store.file})`);
    return EXIT.ok;
  },
};

async function loginSso(
  ctx: Context,
  svc: Service,
  url: string,
  values: OptionValues,
): Promise<number> {
  if (svc !== 'findings') {
    throw usageError(
      '--sso is for the findings service; for the certificate service use its web UI, or a wca_ token in PLATFORM_CERTIFICATES_TOKEN',
    );
  }
  if (values.email !== undefined || values['password-stdin'] !== undefined) {
    throw usageError('--sso takes no --email or --password-stdin (the provider says who you are)');
  }
  const rawTimeout = stringOption(values, 'timeout') ?? '300';
  const timeoutSeconds = Number(rawTimeout);
  if (!/^\d+$/.test(rawTimeout) || timeoutSeconds < 1 || timeoutSeconds > 3600) {
    throw usageError(`--timeout takes seconds from 1 to 3600, not ${rawTimeout}`);
  }
  const session = await ssoSignIn(ctx, url, {
    provider: stringOption(values, 'provider'),
    openBrowser: values['no-browser'] !== true,
    timeoutSeconds,
  });
  await ctx.store.save(svc, session);
  if (ctx.json) {
    ctx.out(
      JSON.stringify({ service: svc, url, email: session.email, expires_at: session.expires_at }),
    );
  } else ctx.out(`Signed in to ${url} as ${session.email} (session stored in ${ctx.store.file})`);
  return EXIT.ok;
}

export const logout: Command = {
  path: ['logout'],
  summary: 'Forget the stored session of a service',
  usage: '<findings|certificates>',
  options: {},
  positionals: { min: 1, max: 1 },
  argValues: ['findings', 'certificates'],
  help: 'Removes the session from the credentials file (the server-side session expires by itself).',
  async run(ctx, _values, [word]) {
    const svc = service(word);
    await ctx.store.save(svc, undefined);
    if (!ctx.json) ctx.out(`Signed out of the ${svc} service`);
    else ctx.out(JSON.stringify({ service: svc, signed_out: true }));
    return EXIT.ok;
  },
};
