import type { MultipartPart } from './multipart-body';
import type { FuzzOperation } from './openapi-operations';
import { encodeQueryPair, type DraftBody, type RequestDraft } from './request-draft';
import { sampleValue } from './schema-sample';

/** What a target knows about a valid call of an operation (real ids, real credentials). */
export interface ValidRequest {
  /** Unencoded path parameter values (ids of seeded objects). */
  path?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Replaces the schema sample of the JSON body. */
  body?: unknown;
  /** Replaces the sampled multipart form. */
  multipart?: MultipartPart[];
  /** Making this request stored something (the runner retakes the database digest). */
  prepared?: boolean;
}

export const MULTIPART_BOUNDARY = 'fuzz-boundary-7d1c';

function sampledMultipart(op: FuzzOperation): MultipartPart[] {
  const schema = op.body?.multipart ?? {};
  const parts: MultipartPart[] = [];
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (field.format === 'binary') {
      parts.push({ name, filename: 'fuzz.json', contentType: 'application/json', data: '{}' });
    } else if ((schema.required ?? []).includes(name)) {
      parts.push({ name, data: String(sampleValue(field, name)) });
    }
  }
  return parts;
}

function draftBody(op: FuzzOperation, valid: ValidRequest): DraftBody {
  if (op.body?.json) {
    const value = valid.body !== undefined ? valid.body : sampleValue(op.body.json);
    return { kind: 'json', value, rawFields: [], contentType: 'application/json' };
  }
  if (op.body?.multipart) {
    return {
      kind: 'multipart',
      parts: valid.multipart ?? sampledMultipart(op),
      boundary: MULTIPART_BOUNDARY,
      closed: true,
    };
  }
  return { kind: 'none' };
}

/** The valid request of an operation as `credentials` would send it. */
export function validDraft(
  op: FuzzOperation,
  valid: ValidRequest,
  credentials: Record<string, string>,
): RequestDraft {
  const pathValues: Record<string, string> = {};
  const query: string[] = [];
  const headers: Record<string, string> = { accept: 'application/json', ...credentials };
  for (const p of op.parameters) {
    const given =
      p.in === 'path' ? valid.path?.[p.name] : p.in === 'query' ? valid.query?.[p.name] : undefined;
    const value = given ?? String(sampleValue(p.schema, p.name));
    if (p.in === 'path') pathValues[p.name] = encodeURIComponent(value);
    if (p.in === 'query' && (p.required || given !== undefined)) {
      query.push(encodeQueryPair(p.name, value));
    }
  }
  for (const [name, value] of Object.entries(valid.query ?? {})) {
    if (!op.parameters.some((p) => p.in === 'query' && p.name === name)) {
      query.push(encodeQueryPair(name, value));
    }
  }
  Object.assign(headers, valid.headers);
  return { method: op.method, pathValues, query, headers, body: draftBody(op, valid) };
}
