import type { FastifyInstance } from 'fastify';

/**
 * A reply's JSON as one Buffer of the same UTF-8 bytes Fastify would write for its string.
 * V8's JSON.stringify returns a page of findings as a rope of parts; sent as a string, it is
 * copied flat on the V8 heap twice more — by Fastify's `Buffer.byteLength` for the
 * Content-Length and by node's HTTP writer, which prepends the header block to a string body
 * before the socket write — ~175 KB of garbage for an 87 KB page (issue 34). `Buffer.from`
 * flattens it once into memory outside the heap, and the header goes out beside it.
 * Anything JSON.stringify does not make a string of stays as it returns it.
 */
export function jsonReplyBody(payload: unknown): unknown {
  const json: unknown = JSON.stringify(payload);
  return typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
}

/** Every route's serializer (no route declares a response schema): jsonReplyBody. */
export function installJsonReplySerializer(fastify: FastifyInstance): void {
  fastify.setReplySerializer(jsonReplyBody as (payload: unknown) => string);
}
