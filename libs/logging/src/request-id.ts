import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** `X-Request-ID` as given when it is a sane token, else a fresh UUID. */
export function resolveRequestId(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  const value = Array.isArray(given) ? given[0] : given;
  return value && SAFE_REQUEST_ID.test(value) ? value : randomUUID();
}
