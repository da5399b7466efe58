import type { FastifyInstance } from 'fastify';

export const OCSP_REQUEST_MEDIA_TYPE = 'application/ocsp-request';
export const OCSP_RESPONSE_MEDIA_TYPE = 'application/ocsp-response';
/** Largest OCSP request body read (16 CertIDs with a nonce stay far below). */
export const OCSP_REQUEST_BODY_LIMIT_BYTES = 8 * 1024;

/**
 * Reads `application/ocsp-request` bodies as bytes (at most 8 KiB). Only `POST /pki/ocsp`
 * declares `@AcceptsBody(OCSP_REQUEST_MEDIA_TYPE)`: the media-type gate refuses the type on
 * every other route before the body is read.
 */
export function installOcspRequestParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    OCSP_REQUEST_MEDIA_TYPE,
    { parseAs: 'buffer', bodyLimit: OCSP_REQUEST_BODY_LIMIT_BYTES },
    (_request, body: Buffer, done) => done(null, body),
  );
}

/** RFC 6960 A.1: the GET form is the DER request, base64, URL-encoded (base64url accepted). */
export function decodeOcspGetPath(encoded: string): Buffer | undefined {
  let text: string;
  try {
    text = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  if (text.length === 0 || text.length > 4 * OCSP_REQUEST_BODY_LIMIT_BYTES) return undefined;
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return undefined;
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}
