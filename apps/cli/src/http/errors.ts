import { CliError, EXIT } from '../errors';
import type { Service } from '../config/store';

export const SERVICE_NAMES: Record<Service, string> = {
  findings: 'findings service',
  certificates: 'certificate service',
};

/** The message and code of an error answer of either service, whatever its envelope. */
async function errorBody(res: Response): Promise<{ code?: string; message?: string }> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { code?: unknown; error?: unknown; message?: unknown };
    // findings: {error, code}; certificate service: {code, message}
    const message = typeof body.error === 'string' ? body.error : body.message;
    return {
      code: typeof body.code === 'string' ? body.code : undefined,
      message: typeof message === 'string' ? message : undefined,
    };
  } catch {
    return { message: text.slice(0, 200).trim() || undefined };
  }
}

/** A non-2xx answer as a CliError with the exit code of its class. */
export async function responseError(service: Service, res: Response): Promise<CliError> {
  const { code, message } = await errorBody(res);
  const what = `${SERVICE_NAMES[service]} answered ${res.status}${code ? ` ${code}` : ''}`;
  const detail = message ? `: ${message}` : '';
  if (res.status === 401) {
    return new CliError(
      EXIT.auth,
      `${what}${detail} — sign in again with \`platform login ${service}\``,
      code,
    );
  }
  if (res.status === 403) return new CliError(EXIT.auth, `not allowed (${what}${detail})`, code);
  if (res.status === 429) {
    const retry = res.headers.get('retry-after');
    return new CliError(
      EXIT.unavailable,
      `${what}: rate limited${retry ? `, retry in ${retry} s` : ''}`,
      code,
    );
  }
  if (res.status >= 500) return new CliError(EXIT.unavailable, `${what}${detail}`, code);
  return new CliError(EXIT.refused, `${what}${detail}`, code);
}

/** A failed fetch (refused connection, unknown host, reset) as exit code 4. */
export function networkError(service: Service, url: string, error: unknown): CliError {
  // fetch: TypeError('fetch failed') with the socket error as cause; node:http: the error itself
  const e = error as {
    code?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  const reason = e.cause?.code ?? e.cause?.message ?? e.code ?? e.message;
  return new CliError(
    EXIT.unavailable,
    `cannot reach the ${SERVICE_NAMES[service]} at ${url}: ${reason}`,
    'unreachable',
  );
}
