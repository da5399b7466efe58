import type { INestApplicationContext } from '@nestjs/common';
import { servedRoutes } from './served-routes';

/** The part of an OpenAPI document these checks read. */
export interface OpenApiResponses {
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
}

/**
 * The success statuses each operation documents, by `get /path/{id}`: 2xx, and with
 * `redirects` also the redirects a redirecting route (single sign-on) succeeds with.
 */
export function documentedSuccesses(
  document: OpenApiResponses,
  options: { redirects?: boolean } = {},
): Map<string, string[]> {
  const success = options.redirects ? /^(2\d\d|30[12378])$/ : /^2\d\d$/;
  const operations = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const codes = Object.keys(operation.responses ?? {}).filter((s) => success.test(s));
      operations.set(`${method} ${path}`, codes);
    }
  }
  return operations;
}

/** Operations that document no success status at all. */
export function operationsWithoutSuccess(documented: Map<string, string[]>): string[] {
  return [...documented].filter(([, codes]) => codes.length === 0).map(([operation]) => operation);
}

/** Routes whose real success status is not among the documented ones, one line each. */
export function undocumentedServedStatuses(
  app: INestApplicationContext,
  documented: Map<string, string[]>,
): string[] {
  return servedRoutes(app)
    .filter((r) => !documented.get(r.operation)?.includes(String(r.status)))
    .map((r) => `${r.operation}: serves ${r.status}, documents ${documented.get(r.operation)}`);
}
