import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { ReportsError } from './reports.errors';
import type { FallbackCommitId, UploadPart } from './upload-form';

/** @fastify/multipart error codes and what an upload answers for them. */
const PLUGIN_ERRORS: Readonly<Record<string, ReportsError['code']>> = {
  FST_FILES_LIMIT: 'upload_too_many_files',
  FST_PARTS_LIMIT: 'upload_too_many_parts',
  FST_FIELDS_LIMIT: 'upload_too_many_parts',
  FST_REQ_FILE_TOO_LARGE: 'report_too_large',
  FST_PROTO_VIOLATION: 'multipart_malformed',
  FST_INVALID_JSON_FIELD_ERROR: 'multipart_malformed',
  FST_MP_PREMATURE_CLOSE: 'multipart_malformed',
};

/** Busboy's parse errors: plain Errors told apart only by their message. */
const BOUNDARY_ERRORS = [/^Multipart: Boundary not found$/, /^The needle cannot be an empty/];
const FRAMING_ERRORS = [/unexpected end of multipart data/i, /^The needle cannot have a length/];

/** A parser failure as the upload's own error; anything else unchanged. */
export function uploadErrorOf(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof ReportsError) return error;
  const code = (error as { code?: unknown }).code;
  const mapped = typeof code === 'string' ? PLUGIN_ERRORS[code] : undefined;
  if (mapped) return new ReportsError(mapped);
  if (BOUNDARY_ERRORS.some((re) => re.test(error.message))) {
    return new ReportsError('multipart_boundary_missing');
  }
  if (FRAMING_ERRORS.some((re) => re.test(error.message))) {
    return new ReportsError('multipart_malformed');
  }
  return error;
}

const BOUNDARY_PARAMETER = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;"]+))/i;

/** Whether the Content-Type names a non-empty boundary (busboy reads an empty one as framing). */
function hasBoundary(contentType: string | undefined): boolean {
  return contentType !== undefined && BOUNDARY_PARAMETER.test(contentType);
}

async function* translated(stream: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    throw uploadErrorOf(error);
  }
}

/** Adapts @fastify/multipart's streaming parts to framework-free UploadParts. */
export async function* multipartParts(request: FastifyRequest): AsyncGenerator<UploadPart> {
  if (!request.isMultipart()) throw new ReportsError('report_file_missing');
  if (!hasBoundary(request.headers['content-type'])) {
    throw new ReportsError('multipart_boundary_missing');
  }
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const stream = Readable.from(translated(part.file), { objectMode: false });
        yield { type: 'file', field: part.fieldname, filename: part.filename, stream };
      } else {
        yield { type: 'field', field: part.fieldname, value: part.value };
      }
    }
  } catch (error) {
    throw uploadErrorOf(error);
  }
}

/** Header `X-Commit-Id`, else query parameter `commit_id` (the first when repeated). */
export function fallbackCommitIdOf(request: FastifyRequest): FallbackCommitId | undefined {
  const first = (value: unknown) => (Array.isArray(value) ? (value[0] as unknown) : value);
  const header = first(request.headers['x-commit-id']);
  if (typeof header === 'string') return { value: header, source: 'X-Commit-Id' };
  const query = first((request.query as Record<string, unknown> | undefined)?.['commit_id']);
  return typeof query === 'string' ? { value: query, source: 'commit_id' } : undefined;
}
