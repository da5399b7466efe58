import { jsonWithRawFields, type RawField } from './json-body';
import { encodeMultipart, type MultipartPart } from './multipart-body';
import type { FuzzOperation } from './openapi-operations';

export type DraftBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; rawFields: RawField[]; contentType: string }
  | {
      kind: 'multipart';
      parts: MultipartPart[];
      boundary: string;
      contentType?: string;
      closed: boolean;
    }
  | { kind: 'raw'; contentType?: string; bytes: Buffer };

/** A request being built: valid first, then changed by one fuzz case. */
export interface RequestDraft {
  method: string;
  /** Percent-encoded value of each path parameter. */
  pathValues: Record<string, string>;
  /** Percent-encoded `name=value` pairs (a pair may be a bare raw string). */
  query: string[];
  headers: Record<string, string>;
  body: DraftBody;
}

/** What goes on the wire. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export function encodeQueryPair(name: string, value: string): string {
  return `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

/** Replaces (or adds) the query parameter `name` with the raw pair(s) `pairs`. */
export function setQuery(draft: RequestDraft, name: string, pairs: string[]): void {
  const prefix = `${encodeURIComponent(name)}=`;
  draft.query = [...draft.query.filter((p) => !p.startsWith(prefix) && p !== name), ...pairs];
}

/** Sets a header, replacing any spelling of the same name. */
export function setHeader(draft: RequestDraft, name: string, value: string | undefined): void {
  for (const key of Object.keys(draft.headers)) {
    if (key.toLowerCase() === name.toLowerCase()) delete draft.headers[key];
  }
  if (value !== undefined) draft.headers[name] = value;
}

export function renderRequest(operation: FuzzOperation, draft: RequestDraft): FuzzRequest {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    return draft.pathValues[name] ?? 'x';
  });
  const query = draft.query.length > 0 ? `?${draft.query.join('&')}` : '';
  const headers = { ...draft.headers };
  let body: Buffer | undefined;
  const b = draft.body;
  switch (b.kind) {
    case 'none':
      break;
    case 'json':
      body = jsonWithRawFields(b.value, b.rawFields);
      headers['content-type'] = b.contentType;
      break;
    case 'multipart':
      body = encodeMultipart(b.parts, b.boundary, b.closed);
      headers['content-type'] = b.contentType ?? `multipart/form-data; boundary=${b.boundary}`;
      break;
    case 'raw':
      body = b.bytes;
      if (b.contentType !== undefined) headers['content-type'] = b.contentType;
      break;
  }
  return { method: draft.method, path: `${path}${query}`, headers, body };
}

/** The JSON text a whole-body variant starts from (`{}` when the draft has no JSON body). */
export function jsonBody(body: DraftBody): Buffer {
  return body.kind === 'json' ? jsonWithRawFields(body.value, body.rawFields) : Buffer.from('{}');
}
