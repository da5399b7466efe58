import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { MAX_JSON_DEPTH, parseJsonBody } from './json-body';
import { RequestBodyError } from './request-body-error';

export interface JsonBodyOptions {
  /** Largest body in bytes; a larger one is answered 413 before it is read in full. */
  bodyLimit: number;
  maxDepth?: number;
  /** Keep the exact bytes as `request.rawBody` (a signature over the body is checked). */
  keepRawBody?: boolean;
  /**
   * A non-empty body of another media type without a parser of its own: `refuse` (415) or
   * `parse-as-json` (a service still observing mislabelled clients parses it like JSON).
   */
  otherMediaTypes?: 'refuse' | 'parse-as-json';
}

type Done = (error: Error | null, body?: unknown) => void;

interface RawBodyCarrier {
  rawBody?: Buffer;
}

/** Settles as no body when the payload ends empty, as 415 at its first byte (never buffered). */
function refuseUnlessEmpty(payload: Readable, done: Done): void {
  let settled = false;
  const settle = (error: Error | null): void => {
    if (settled) return;
    settled = true;
    payload.removeListener('data', onData);
    done(error, undefined);
  };
  const onData = (): void => settle(RequestBodyError.unsupportedMediaType());
  payload.on('data', onData);
  payload.once('end', () => settle(null));
  payload.once('error', (error: Error) => settle(error));
}

/**
 * Makes `application/json` the one body format: every default parser (text/plain, Nest's
 * urlencoded) is removed, and JSON bodies are bounded in size and depth before anything
 * validates them. Register other parsers (multipart) after this call, and create the Nest app
 * with `bodyParser: false` so Nest does not register its own.
 */
export function installJsonBodyParser(fastify: FastifyInstance, options: JsonBodyOptions): void {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const parseJson = (request: FastifyRequest, body: Buffer, done: Done): void => {
    if (options.keepRawBody) (request as RawBodyCarrier).rawBody = body;
    let parsed: unknown;
    try {
      parsed = parseJsonBody(body, maxDepth);
    } catch (error) {
      return done(error as Error);
    }
    done(null, parsed);
  };
  const asBuffer = { parseAs: 'buffer' as const, bodyLimit: options.bodyLimit };
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', asBuffer, parseJson);
  if (options.otherMediaTypes === 'parse-as-json') {
    fastify.addContentTypeParser('*', asBuffer, (request, body: Buffer, done) =>
      body.length === 0 ? done(null, undefined) : parseJson(request, body, done),
    );
    return;
  }
  // An empty body under any media type (`curl -X POST -d ''`) is no body; any other is 415.
  fastify.addContentTypeParser('*', (_request, payload, done) => refuseUnlessEmpty(payload, done));
}
