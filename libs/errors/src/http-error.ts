import { HttpException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError } from './domain-error';

/** What a global filter needs to know about any thrown value. */
export type ClassifiedError =
  | { kind: 'domain'; error: DomainError }
  | { kind: 'http'; status: number; message: string; code: string }
  | { kind: 'unknown'; errorId: string; error: unknown };

const HTTP_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/** Framework-level errors (routing, body parsing) carry a numeric status but no domain code. */
export function httpStatusCode(status: number): string {
  return HTTP_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

interface StatusCarrier {
  statusCode?: unknown;
  status?: unknown;
  message?: unknown;
}

export function classifyError(error: unknown): ClassifiedError {
  if (error instanceof DomainError) return { kind: 'domain', error };
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return { kind: 'http', status, message: error.message, code: httpStatusCode(status) };
  }
  // Fastify / body-parser errors expose a 4xx statusCode (e.g. FST_ERR_CTP_BODY_TOO_LARGE).
  const carrier = (typeof error === 'object' && error !== null ? error : {}) as StatusCarrier;
  const status = Number(carrier.statusCode ?? carrier.status);
  if (Number.isInteger(status) && status >= 400 && status < 500) {
    const message = typeof carrier.message === 'string' ? carrier.message : httpStatusCode(status);
    return { kind: 'http', status, message, code: httpStatusCode(status) };
  }
  return { kind: 'unknown', errorId: randomUUID(), error };
}
