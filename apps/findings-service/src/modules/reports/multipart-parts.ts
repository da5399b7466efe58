import type { FastifyRequest } from 'fastify';
import { ReportsError } from './reports.errors';
import type { UploadPart } from './upload-form';

/** Adapts @fastify/multipart's streaming parts to framework-free UploadParts. */
export async function* multipartParts(request: FastifyRequest): AsyncGenerator<UploadPart> {
  if (!request.isMultipart()) throw new ReportsError('report_file_missing');
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      yield { type: 'file', field: part.fieldname, filename: part.filename, stream: part.file };
    } else {
      yield { type: 'field', field: part.fieldname, value: String(part.value) };
    }
  }
}
