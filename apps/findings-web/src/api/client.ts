/**
 * The typed API client, generated from docs/openapi/findings-service.json (schema.gen.ts is
 * written by the generate-api target before every typecheck and build: a route or DTO change
 * in the shipped contract breaks the build, not the user).
 */
import { ApiError, createAuthFetch } from '@platform/web-ui/core';
import createClient from 'openapi-fetch';
import {
  findingDtoSeverityValues,
  findingDtoStatusValues,
  type components,
  type paths,
} from './schema.gen';
import { session } from './session';

export type Schemas = components['schemas'];
export type Finding = Schemas['FindingDto'];
export type FindingStatus = Finding['status'];
export type Severity = Finding['severity'];

export { ApiError };

/** Sends with the access token; on 401 rotates the session once through the refresh cookie and retries. */
export const authFetch = createAuthFetch(session);

export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? '',
  fetch: (input: Request) => authFetch(input),
});

interface Envelope {
  error?: string;
  code?: string;
  position?: number;
  fields?: Schemas['FieldProblemDto'][];
}

export function toApiError(response: Response, error: unknown): ApiError {
  const body = (typeof error === 'object' && error !== null ? error : {}) as Envelope;
  return new ApiError(
    response.status,
    body.code ?? `http_${response.status}`,
    body.error ?? response.statusText,
    body.position,
    body.fields,
  );
}

/** The `data` of a success envelope, or an ApiError. */
export async function call<T>(
  pending: Promise<{ data?: { data: T }; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok || data === undefined) throw toApiError(response, error);
  return data.data;
}

/** A call answered with no body (204). */
export async function callVoid(
  pending: Promise<{ error?: unknown; response: Response }>,
): Promise<void> {
  const { error, response } = await pending;
  if (!response.ok) throw toApiError(response, error);
}

/** The severities, highest first: FindingDto's `severity` enum of the OpenAPI document. */
export const SEVERITIES: readonly Severity[] = findingDtoSeverityValues;
/** The finding statuses in the contract's order: FindingDto's `status` enum of the OpenAPI document. */
export const STATUSES: readonly FindingStatus[] = findingDtoStatusValues;
/**
 * The statuses a person may choose: `renewed` is set only by an import that sees a closed
 * finding again (the API refuses it by hand).
 */
export type ManualStatus = Exclude<FindingStatus, 'renewed'>;
export const MANUAL_STATUSES: readonly ManualStatus[] = STATUSES.filter(
  (s): s is ManualStatus => s !== 'renewed',
);

/** The error of whichever of `attempts` (mutations) ran last. */
export { latestError } from '@platform/web-ui/core';
