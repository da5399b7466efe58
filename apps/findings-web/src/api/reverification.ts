/**
 * The manual re-verification routes (`GET`/`POST /api/v1/findings/{id}/reverification`). They
 * are mounted only when the API runs with FEATURE_MANUAL_REVERIFICATION=true, and the OpenAPI
 * document is generated with the defaults, so they are not in schema.gen.ts: the answer is
 * typed here after the service's VerificationDto. A 404 `not_found` (the code of an unknown
 * route) means the feature is off: `undefined`, not an error.
 */
import { ApiError, authFetch, toApiError } from './client';

export interface Verification {
  id: string;
  finding_id: string;
  origin: 'manual' | 'automatic' | 'scanner';
  state: 'pending' | 'answered' | 'failed';
  /** Who asked (a person's label), null for automatic requests and scanner reports. */
  requested_by: string | null;
  requested_at: string;
  delivery_error: string | null;
  result: 'absent' | 'present' | 'undetermined' | null;
  answered_at: string | null;
  /** Public id of the callback key that signed the answer. */
  key_id: string | null;
  scanner: string | null;
  details: string | null;
}

async function send<T>(method: 'GET' | 'POST', findingId: string): Promise<T | undefined> {
  const response = await authFetch(
    new Request(
      new URL(
        `/api/v1/findings/${encodeURIComponent(findingId)}/reverification`,
        globalThis.location.origin,
      ),
      { method },
    ),
  );
  const body = (await response.json().catch(() => undefined)) as { data?: T } | undefined;
  if (response.ok && body?.data !== undefined) return body.data;
  const error = toApiError(response, body);
  if (error.status === 404 && error.code === 'not_found') return undefined;
  throw error;
}

/** The finding's requests and answers, newest first; undefined when the feature is off. */
export function listVerifications(findingId: string): Promise<Verification[] | undefined> {
  return send<Verification[]>('GET', findingId);
}

/** Asks the project's scanner now (202: pending, or failed with the delivery error). */
export async function requestVerification(findingId: string): Promise<Verification> {
  const created = await send<Verification>('POST', findingId);
  if (!created) throw new ApiError(404, 'not_found', 're-verification is not available');
  return created;
}
