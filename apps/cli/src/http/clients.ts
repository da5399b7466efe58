import createClient, { type Client } from 'openapi-fetch';
import type { paths as CertificatePaths } from '../api/certificates.gen';
import type { paths as FindingsPaths } from '../api/findings.gen';
import { CredentialStore, type Service } from '../config/store';
import { CliError, EXIT, usageError } from '../errors';
import { Transport, type ServiceAuth } from './transport';

/** Environment variables: base URL and a machine credential per service (docs/cli.md). */
export const ENV = {
  findings: { url: 'PLATFORM_FINDINGS_URL', key: 'PLATFORM_FINDINGS_API_KEY' },
  certificates: { url: 'PLATFORM_CERTIFICATES_URL', key: 'PLATFORM_CERTIFICATES_TOKEN' },
} as const;

export function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usageError(`not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`not an http(s) URL: ${raw}`);
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** The credentials for `service`: the environment's key first, else the stored session. */
export async function transportFor(
  service: Service,
  env: NodeJS.ProcessEnv,
  store: CredentialStore,
): Promise<Transport> {
  const names = ENV[service];
  const session = await store.session(service);
  const key = env[names.key]?.trim();
  const rawUrl = env[names.url]?.trim() || session?.url;
  if (!rawUrl) {
    throw new CliError(
      EXIT.auth,
      `no ${service} server: run \`platform login ${service} --url <url>\` or set ${names.url}`,
      'not_signed_in',
    );
  }
  const url = checkUrl(rawUrl);
  let auth: ServiceAuth;
  if (key) auth = { kind: 'key', key };
  else if (session) auth = { kind: 'session', session };
  else {
    throw new CliError(
      EXIT.auth,
      `not signed in to the ${service} service: run \`platform login ${service}\` or set ${names.key}`,
      'not_signed_in',
    );
  }
  return new Transport(service, url, auth, store);
}

export async function findingsApi(env: NodeJS.ProcessEnv, store: CredentialStore) {
  const transport = await transportFor('findings', env, store);
  const api: Client<FindingsPaths> = createClient<FindingsPaths>({
    baseUrl: transport.baseUrl,
    fetch: transport.fetch,
  });
  return { api, transport };
}

export async function certificatesApi(env: NodeJS.ProcessEnv, store: CredentialStore) {
  const transport = await transportFor('certificates', env, store);
  const api: Client<CertificatePaths> = createClient<CertificatePaths>({
    baseUrl: transport.baseUrl,
    fetch: transport.fetch,
  });
  return { api, transport };
}

/** The data of a typed call; the transport already turned error answers into CliErrors. */
export function must<T>(result: { data?: T }): T {
  if (result.data === undefined) {
    throw new CliError(EXIT.unavailable, 'the server sent an empty answer', 'empty_answer');
  }
  return result.data;
}
