import * as http from 'node:http';
import { Refused, type EgressLabels } from './egress-check';
import type { EgressMethod, EgressRequest } from './egress-guard';

/** Method, headers and body of one hop, as the guard sends them. */
export interface Exchange {
  method: string;
  headers: Array<readonly [string, string]>;
  body?: Uint8Array;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Headers the guard owns or that would change how the connection is used. */
const GUARD_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'http2-settings',
]);
const MAX_REQUEST_HEADER_BYTES = 64 * 1024;

/** Method, headers and body as the caller sent them, refused when the guard cannot send them as they are. */
export function checkExchange(
  request: EgressRequest,
  maxRequestBytes: number,
  labels: EgressLabels,
  methods?: readonly EgressMethod[],
): Exchange {
  if (
    !METHODS.has(request.method) ||
    (methods !== undefined && !methods.includes(request.method as EgressMethod))
  ) {
    throw new Refused(
      'method_not_allowed',
      `method ${String(request.method).slice(0, 20)} is not allowed`,
    );
  }
  let headerBytes = 0;
  for (const [name, value] of request.headers ?? []) {
    const lower = String(name).toLowerCase();
    try {
      http.validateHeaderName(name);
      http.validateHeaderValue(name, value);
    } catch {
      throw new Refused('header_not_allowed', 'a header name or value is invalid');
    }
    if (GUARD_HEADERS.has(lower) || lower.startsWith('proxy-')) {
      throw new Refused(
        'header_not_allowed',
        `header ${lower} is set by the guard, not ${labels.callerNoun}`,
      );
    }
    headerBytes += name.length + value.length + 4;
  }
  if (headerBytes > MAX_REQUEST_HEADER_BYTES) {
    throw new Refused(
      'header_not_allowed',
      `request headers exceed ${MAX_REQUEST_HEADER_BYTES} bytes`,
    );
  }
  if (request.body !== undefined && request.body.length > maxRequestBytes) {
    throw new Refused(
      'request_too_large',
      `request body of ${request.body.length} bytes exceeds ${maxRequestBytes} bytes`,
    );
  }
  return { method: request.method, headers: [...(request.headers ?? [])], body: request.body };
}
