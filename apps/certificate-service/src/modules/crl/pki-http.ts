import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { toPem } from '@platform/pki';
import { etagMatches } from '../agent/bundle-version';

/** PEM instead of DER when the client asks for it (`Accept: application/x-pem-file`). */
export const PEM_MEDIA_TYPE = 'application/x-pem-file';

/** Longest time a shared cache may keep a CRL: a revocation re-signs it at once. */
export const CRL_MAX_AGE_SECONDS = 300;
/** CA certificates change only when the issuing CA is re-issued. */
export const CA_CERTIFICATE_MAX_AGE_SECONDS = 3600;

export interface PublishedObject {
  readonly der: Buffer;
  /** `CRL` or `CERTIFICATE` (PEM label). */
  readonly label: 'X509 CRL' | 'CERTIFICATE';
  /** DER media type: `application/pkix-crl` or `application/pkix-cert`. */
  readonly mediaType: string;
  readonly fileName: string;
  /** thisUpdate of a CRL; none for a certificate (the ETag alone validates it). */
  readonly lastModified?: Date;
  readonly maxAgeSeconds: number;
}

export interface ConditionalHeaders {
  readonly accept?: string;
  readonly ifNoneMatch?: string;
  readonly ifModifiedSince?: string;
}

export function wantsPem(accept: string | undefined): boolean {
  return (accept ?? '').toLowerCase().includes(PEM_MEDIA_TYPE);
}

function notModifiedSince(lastModified: Date | undefined, header: string | undefined): boolean {
  if (!lastModified || !header) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/**
 * Sends a CRL or CA certificate as DER (default) or PEM, with a strong ETag per
 * representation, `Last-Modified`, `Cache-Control` and `Vary: Accept`; 304 when
 * `If-None-Match` names the ETag, or (without `If-None-Match`) `If-Modified-Since` is not
 * older than `Last-Modified` (RFC 9110 13.2.2).
 */
export async function sendPublished(
  reply: FastifyReply,
  object: PublishedObject,
  headers: ConditionalHeaders,
): Promise<void> {
  const pem = wantsPem(headers.accept);
  const body = pem ? Buffer.from(toPem(object.label, object.der)) : object.der;
  const digest = createHash('sha256').update(object.der).digest('base64url').slice(0, 32);
  const etag = `"${digest}${pem ? '-pem' : ''}"`;
  void reply
    .header('etag', etag)
    .header('vary', 'Accept')
    .header('cache-control', `public, max-age=${object.maxAgeSeconds}, no-transform`);
  if (object.lastModified) void reply.header('last-modified', object.lastModified.toUTCString());
  const notModified =
    headers.ifNoneMatch !== undefined
      ? etagMatches(headers.ifNoneMatch, etag)
      : notModifiedSince(object.lastModified, headers.ifModifiedSince);
  if (notModified) {
    await reply.code(304).send();
    return;
  }
  await reply
    .code(200)
    .header('content-type', pem ? PEM_MEDIA_TYPE : object.mediaType)
    .header('content-disposition', `inline; filename="${object.fileName}${pem ? '.pem' : ''}"`)
    .send(body);
}

/** Seconds a cache may keep a CRL: until its nextUpdate, at most `CRL_MAX_AGE_SECONDS`. */
export function crlMaxAge(nextUpdate: Date, now = new Date()): number {
  const left = Math.floor((nextUpdate.getTime() - now.getTime()) / 1000);
  return Math.max(0, Math.min(CRL_MAX_AGE_SECONDS, left));
}
