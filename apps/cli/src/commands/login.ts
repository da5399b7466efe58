import createClient from 'openapi-fetch';
import type { paths as CertificatePaths } from '../api/certificates.gen';
import type { paths as FindingsPaths } from '../api/findings.gen';
import { type Command, type Context, stringOption } from '../command';
import type { Service, StoredSession } from '../config/store';
import { CliError, EXIT, usageError } from '../errors';
import { checkUrl, ENV, must } from '../http/clients';
import { networkError, responseError } from '../http/errors';
import { expiresAt, findingsRefreshCookie } from '../http/refresh';
import { readPassword } from './password';

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
  summary: 'Sign in to a service with email and password; stores the session (0600)',
  usage: '<findings|certificates> [--url <url>] [--email <email>] [--password-stdin]',
  options: {
    url: { type: 'string' },
    email: { type: 'string' },
    'password-stdin': { type: 'boolean' },
  },
  positionals: { min: 1, max: 1 },
  help: `Options:
  --url <url>         the service's base URL (default: ${ENV.findings.url} or
                      ${ENV.certificates.url}, else the URL of the stored session)
  --email <email>     the account (default: the stored session's)
  --password-stdin    read the password from standard input (CI); else PLATFORM_PASSWORD,
                      else a prompt on a terminal

The session (access and refresh token) is written to $XDG_CONFIG_HOME/platform/credentials.json
(mode 0600, directory 0700). Machines skip login: with ${ENV.findings.key} (a service-account
key sa_...) or ${ENV.certificates.key} (a wca_... token) set, every command uses that key.`,
  async run(ctx: Context, values, [word]) {
    const svc = service(word);
    const stored = await ctx.store.session(svc);
    const rawUrl = stringOption(values, 'url') ?? ctx.env[ENV[svc].url] ?? stored?.url;
    if (!rawUrl) throw usageError(`--url is required (or set ${ENV[svc].url})`);
    const email = stringOption(values, 'email') ?? stored?.email;
    if (!email) throw usageError('--email is required');
    const url = checkUrl(rawUrl);
    const password = await readPassword(ctx, values['password-stdin'] === true);
    const session = await signIn(svc, url, email, password);
    await ctx.store.save(svc, session);
    if (ctx.json)
      ctx.out(JSON.stringify({ service: svc, url, email, expires_at: session.expires_at }));
    else ctx.out(`Signed in to ${url} as ${email} (session stored in ${ctx.store.file})`);
    return EXIT.ok;
  },
};

export const logout: Command = {
  path: ['logout'],
  summary: 'Forget the stored session of a service',
  usage: '<findings|certificates>',
  options: {},
  positionals: { min: 1, max: 1 },
  help: 'Removes the session from the credentials file (the server-side session expires by itself).',
  async run(ctx, _values, [word]) {
    const svc = service(word);
    await ctx.store.save(svc, undefined);
    if (!ctx.json) ctx.out(`Signed out of the ${svc} service`);
    else ctx.out(JSON.stringify({ service: svc, signed_out: true }));
    return EXIT.ok;
  },
};
