/**
 * The typed API client, generated from docs/openapi/certificate-service.json (schema.gen.ts is
 * written by the generate-api target before every typecheck and build: a route or DTO change
 * in the shipped contract breaks the build, not the user). The certificate service answers
 * the resource itself (no `data` envelope) and errors as `{code, message, details?}`.
 */
import { ApiError, createAuthFetch } from '@platform/web-ui/core';
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.gen';
import { session } from './session';

export type Schemas = components['schemas'];
export { ApiError };

/** Sends with the access token; on 401 rotates the session once through the refresh cookie and retries. */
export const authFetch = createAuthFetch(session);

export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? '',
  fetch: (input: Request) => authFetch(input),
});

interface Envelope {
  code?: string;
  message?: string;
  details?: { field?: string; problems?: string[] }[];
}

export function toApiError(response: Response, error: unknown): ApiError {
  const body = (typeof error === 'object' && error !== null ? error : {}) as Envelope;
  return new ApiError(
    response.status,
    body.code ?? `http_${response.status}`,
    body.message ?? response.statusText,
    undefined,
    body.details?.map((d) => ({ field: d.field ?? '', problems: d.problems ?? [] })),
  );
}

/** The answer's body, or an ApiError. */
export async function call<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok || data === undefined) throw toApiError(response, error);
  return data;
}

/** A call answered with no body (204). */
export async function callVoid(
  pending: Promise<{ error?: unknown; response: Response }>,
): Promise<void> {
  const { error, response } = await pending;
  if (!response.ok) throw toApiError(response, error);
}
