import { JSON_BODY_VARIANTS } from './body-variants';
import { REMOVE_FIELD, jsonWithDuplicateKey, valueAt, withValueAt } from './json-body';
import {
  HOSTILE_HEADERS,
  HOSTILE_JSON,
  HOSTILE_URL_TOKENS,
  KB,
  deepArray,
  type HostileJson,
} from './hostile-values';
import { MULTIPART_VARIANTS } from './multipart-variants';
import type { FuzzOperation } from './openapi-operations';
import { encodeQueryPair, jsonBody, setHeader, setQuery, type RequestDraft } from './request-draft';
import { pointerLabel, schemaFields } from './schema-sample';

export type CaseCategory =
  | 'valid'
  | 'path'
  | 'query'
  | 'header'
  | 'field'
  | 'body'
  | 'multipart'
  | 'auth'
  | 'method'
  | 'combo';

/** One way to turn the valid request of an operation into a hostile one. */
export interface CaseTemplate {
  category: CaseCategory;
  variant: string;
  apply: (draft: RequestDraft) => void;
}

const caseOf = (
  category: CaseCategory,
  variant: string,
  apply: (draft: RequestDraft) => void,
): CaseTemplate => ({ category, variant, apply });

function pathCases(op: FuzzOperation): CaseTemplate[] {
  const out: CaseTemplate[] = [];
  for (const p of op.parameters.filter((x) => x.in === 'path')) {
    for (const token of HOSTILE_URL_TOKENS) {
      out.push(
        caseOf('path', `path ${p.name}=${token.label}`, (d) => {
          d.pathValues[p.name] = token.raw(decodeURIComponent(d.pathValues[p.name] ?? ''));
        }),
      );
    }
  }
  return out;
}

function validQueryValue(d: RequestDraft, name: string): string {
  const prefix = `${encodeURIComponent(name)}=`;
  const pair = d.query.find((p) => p.startsWith(prefix));
  return pair ? decodeURIComponent(pair.slice(prefix.length)) : 'x';
}

function queryCases(op: FuzzOperation): CaseTemplate[] {
  const out: CaseTemplate[] = [];
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    const q = encodeURIComponent(p.name);
    for (const token of HOSTILE_URL_TOKENS) {
      out.push(
        caseOf('query', `query ${p.name}=${token.label}`, (d) => {
          setQuery(d, p.name, [`${q}=${token.raw(validQueryValue(d, p.name))}`]);
        }),
      );
    }
    const shapes: [string, (v: string) => string[]][] = [
      ['repeated', (v) => [encodeQueryPair(p.name, v), encodeQueryPair(p.name, `${v}2`)]],
      ['brackets', (v) => [`${q}%5B%5D=${encodeURIComponent(v)}`]],
      ['object-brackets', (v) => [`${q}%5Ba%5D=${encodeURIComponent(v)}`]],
      ['bare', () => [q]],
    ];
    for (const [label, pairs] of shapes) {
      out.push(
        caseOf('query', `query ${p.name} ${label}`, (d) => {
          setQuery(d, p.name, pairs(validQueryValue(d, p.name)));
        }),
      );
    }
  }
  const extra: [string, string[]][] = [
    ['unknown-param', ['unknown_param=1']],
    ['proto-param', ['__proto__%5Badmin%5D=1', 'constructor%5Bprototype%5D%5Bx%5D=1']],
    ['1000-params', Array.from({ length: 1000 }, (_, i) => `p${i}=1`)],
    ['url-over-16kb', [`pad=${'u'.repeat(20 * KB)}`]],
    ['bare-ampersands', ['&&&=&=']],
  ];
  for (const [label, pairs] of extra) {
    out.push(caseOf('query', `query ${label}`, (d) => void d.query.push(...pairs)));
  }
  return out;
}

const COMMON_HEADERS: [string, string, string][] = [
  ['accept-language', 'latin1-bytes', '\u00ff\u00fe;q=\u00ff'],
  ['accept-language', 'long-8kb', `${'ru-RU,'.repeat(1300)}en`],
  ['accept-language', 'bad-weights', '*;q=abc,ru;q=-1,en;q=1e20,zz-ZZ'],
  ['accept-language', 'ru', 'ru'],
  ['accept', 'xml', 'application/xml'],
  ['x-request-id', 'hostile', '../..;\u00ff'],
  ['x-forwarded-for', 'garbage', 'garbage, \u00ff, 999.999.999.999, ::ffff:1'],
  ['cookie', 'garbage', 'findsvc_refresh=%00garbage; certsvc_refresh=\u00ff; =; a'],
  ['content-encoding', 'gzip-lie', 'gzip'],
];

function headerCases(op: FuzzOperation): CaseTemplate[] {
  const out: CaseTemplate[] = [];
  for (const p of op.parameters.filter((x) => x.in === 'header')) {
    for (const h of HOSTILE_HEADERS) {
      out.push(
        caseOf('header', `header ${p.name}=${h.label}`, (d) => {
          const key = Object.keys(d.headers).find((k) => k.toLowerCase() === p.name.toLowerCase());
          setHeader(d, p.name, h.value(key ? (d.headers[key] ?? '') : ''));
        }),
      );
    }
  }
  for (const [name, label, value] of COMMON_HEADERS) {
    out.push(caseOf('header', `header ${name}=${label}`, (d) => setHeader(d, name, value)));
  }
  return out;
}

function fieldCases(op: FuzzOperation): CaseTemplate[] {
  const schema = op.body?.json;
  if (!schema) return [];
  const out: CaseTemplate[] = [];
  const setRaw = (pointer: (string | number)[], hostile: HostileJson) => (d: RequestDraft) => {
    if (d.body.kind !== 'json') return;
    const valid = valueAt(d.body.value, pointer);
    d.body.rawFields.push({ pointer, raw: hostile.json(valid) });
  };
  for (const field of schemaFields(schema)) {
    const label = pointerLabel(field.pointer);
    for (const hostile of HOSTILE_JSON) {
      out.push(caseOf('field', `field ${label}=${hostile.label}`, setRaw(field.pointer, hostile)));
    }
    out.push(
      caseOf('field', `field ${label} removed`, (d) => {
        if (d.body.kind === 'json')
          d.body.value = withValueAt(d.body.value, field.pointer, REMOVE_FIELD);
      }),
    );
  }
  for (const key of Object.keys(schema.properties ?? {})) {
    out.push(
      caseOf('field', `field ${key} duplicated (null last)`, (d) => {
        if (d.body.kind !== 'json') return;
        const root = (d.body.value ?? {}) as Record<string, unknown>;
        const valid = JSON.stringify(root[key] ?? 'x');
        d.body = {
          kind: 'raw',
          contentType: 'application/json',
          bytes: jsonWithDuplicateKey(root, key, valid, 'null'),
        };
      }),
      caseOf('field', `field ${key} duplicated (deep first)`, (d) => {
        if (d.body.kind !== 'json') return;
        const root = (d.body.value ?? {}) as Record<string, unknown>;
        const valid = JSON.stringify(root[key] ?? 'x');
        d.body = {
          kind: 'raw',
          contentType: 'application/json',
          bytes: jsonWithDuplicateKey(root, key, deepArray(10_000), valid),
        };
      }),
    );
  }
  out.push(
    caseOf('field', 'field unknown_field added', (d) => {
      if (d.body.kind === 'json') d.body.value = withValueAt(d.body.value, ['unknown_field'], 1);
    }),
  );
  return out;
}

function bodyCases(op: FuzzOperation): CaseTemplate[] {
  if (op.body?.multipart && !op.body.json) {
    return MULTIPART_VARIANTS.map((v) =>
      caseOf('multipart', `multipart ${v.label}`, (d) => {
        if (d.body.kind === 'multipart') d.body = v.body(d.body.parts, d.body.boundary);
      }),
    );
  }
  return JSON_BODY_VARIANTS.map((v) =>
    caseOf('body', `body ${v.label}`, (d) => {
      d.body = v.body(jsonBody(d.body));
    }),
  );
}

function multipartFieldCases(op: FuzzOperation): CaseTemplate[] {
  const schema = op.body?.multipart;
  if (!schema) return [];
  const out: CaseTemplate[] = [];
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (field.format === 'binary') continue;
    for (const hostile of HOSTILE_JSON) {
      out.push(
        caseOf('multipart', `multipart field ${name}=${hostile.label}`, (d) => {
          if (d.body.kind !== 'multipart') return;
          const raw = hostile.json(undefined);
          const text = typeof raw === 'string' ? raw : raw.toString('latin1');
          let value: Buffer | string = raw;
          try {
            const parsed: unknown = JSON.parse(text);
            if (typeof parsed === 'string') value = parsed;
          } catch {
            value = raw;
          }
          d.body.parts = [...d.body.parts.filter((p) => p.name !== name), { name, data: value }];
        }),
      );
    }
  }
  return out;
}

const BAD_CREDENTIALS: [string, string, string][] = [
  ['authorization', 'garbage-bearer', 'Bearer garbage'],
  ['authorization', 'long-bearer', `Bearer ${'t'.repeat(8 * KB)}`],
  [
    'authorization',
    'alg-none-jwt',
    'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJhZG1pbiIsInJvbGVzIjpbImFkbWluIl19.',
  ],
  ['authorization', 'three-dots', 'Bearer a.b.c'],
  ['authorization', 'latin1-bearer', 'Bearer \u00ff\u00fe'],
  ['authorization', 'basic', 'Basic YWRtaW46YWRtaW4='],
  ['authorization', 'empty', ''],
  ['authorization', 'apikey-scheme', 'ApiKey sa_deadbeef_x'],
  ['x-api-key', 'fake-key', `sa_00000000_${'a'.repeat(40)}`],
  ['x-api-key', 'latin1-key', 'sa_\u00ff\u00fe_x'],
];

function authCases(op: FuzzOperation): CaseTemplate[] {
  if (op.security.length === 0) return [];
  return BAD_CREDENTIALS.map(([name, label, value]) =>
    caseOf('auth', `auth ${name}=${label}`, (d) => setHeader(d, name, value)),
  );
}

function methodCases(op: FuzzOperation): CaseTemplate[] {
  const wrong = op.method === 'PATCH' ? 'PUT' : 'PATCH';
  return [
    caseOf('method', 'method OPTIONS', (d) => void (d.method = 'OPTIONS')),
    caseOf('method', `method ${wrong}`, (d) => void (d.method = wrong)),
    caseOf('method', 'method HEAD', (d) => void (d.method = 'HEAD')),
  ];
}

/** Every single-change case of an operation (the valid request first). */
export function operationCases(op: FuzzOperation): CaseTemplate[] {
  return [
    caseOf('valid', 'valid', () => undefined),
    ...pathCases(op),
    ...queryCases(op),
    ...headerCases(op),
    ...fieldCases(op),
    ...bodyCases(op),
    ...multipartFieldCases(op),
    ...authCases(op),
    ...methodCases(op),
  ];
}
