/** The parts of a JSON Schema (OpenAPI 3 dialect) the fuzzer reads. */
export interface JsonSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface FuzzParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: JsonSchema;
}

export interface FuzzRequestBody {
  required: boolean;
  /** Schema of the JSON body, when the operation takes JSON. */
  json?: JsonSchema;
  /** Schema of the multipart form, when the operation takes multipart/form-data. */
  multipart?: JsonSchema;
  contentTypes: string[];
}

/** One operation of an OpenAPI document, with every `$ref` resolved. */
export interface FuzzOperation {
  /** `METHOD /path/{template}` */
  key: string;
  method: string;
  path: string;
  operationId?: string;
  parameters: FuzzParameter[];
  body?: FuzzRequestBody;
  /** Security schemes of the alternatives (`[]` means public). */
  security: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Inlines local `$ref`s; a cycle is cut after `depth` levels into `{}`. */
function resolve(document: Json, value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((item) => resolve(document, item, depth));
  if (!isObject(value)) return value;
  const ref = value.$ref;
  if (typeof ref === 'string') {
    if (depth > 8 || !ref.startsWith('#/')) return {};
    let target: unknown = document;
    for (const part of ref.slice(2).split('/')) {
      target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    }
    return resolve(document, target ?? {}, depth + 1);
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, resolve(document, item, depth)]),
  );
}

function parametersOf(document: Json, pathItem: Json, operation: Json): FuzzParameter[] {
  const raw = [
    ...((pathItem.parameters as unknown[] | undefined) ?? []),
    ...((operation.parameters as unknown[] | undefined) ?? []),
  ];
  const byKey = new Map<string, FuzzParameter>();
  for (const entry of raw) {
    const p = resolve(document, entry) as Json;
    const location = p.in as ParameterLocation;
    const name = String(p.name);
    // Header names are case-insensitive: a document may list one twice.
    const key = `${location}:${location === 'header' ? name.toLowerCase() : name}`;
    byKey.set(key, {
      name,
      in: location,
      required: p.required === true || location === 'path',
      schema: (p.schema as JsonSchema | undefined) ?? {},
    });
  }
  return [...byKey.values()];
}

function bodyOf(document: Json, operation: Json): FuzzRequestBody | undefined {
  const body = resolve(document, operation.requestBody) as Json | undefined;
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const content = body.content as Record<string, Json>;
  const schemaOf = (type: string) => (content[type]?.schema as JsonSchema | undefined) ?? {};
  return {
    required: body.required === true,
    contentTypes: Object.keys(content),
    json: 'application/json' in content ? schemaOf('application/json') : undefined,
    multipart: 'multipart/form-data' in content ? schemaOf('multipart/form-data') : undefined,
  };
}

/** Every operation of an OpenAPI 3 document, in document order. */
export function openApiOperations(document: unknown): FuzzOperation[] {
  if (!isObject(document) || !isObject(document.paths)) {
    throw new Error('not an OpenAPI 3 document (no paths)');
  }
  const globalSecurity = (document.security as Json[] | undefined) ?? [];
  const operations: FuzzOperation[] = [];
  for (const [path, rawItem] of Object.entries(document.paths)) {
    const pathItem = rawItem as Json;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const security = (operation.security as Json[] | undefined) ?? globalSecurity;
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operationId: typeof operation.operationId === 'string' ? operation.operationId : undefined,
        parameters: parametersOf(document, pathItem, operation),
        body: bodyOf(document, operation),
        security: [...new Set(security.flatMap((alternative) => Object.keys(alternative)))],
      });
    }
  }
  return operations;
}
