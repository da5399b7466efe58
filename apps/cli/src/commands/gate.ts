import type { Client } from 'openapi-fetch';
import type { components, paths } from '../api/findings.gen';
import { CliError, usageError } from '../errors';
import { must } from '../http/clients';
import type { Cell } from '../output';

export type Finding = components['schemas']['FindingDto'];

export const GATE_HEADERS = ['ID', 'SEVERITY', 'STATUS', 'PRODUCT', 'TITLE', 'LOCATION'];

export function locationOf(f: Finding): string | undefined {
  return f.location?.label || undefined;
}

export function gateRows(items: Finding[]): Cell[][] {
  return items.map((f) => [f.id, f.severity, f.status, f.product_name, f.title, locationOf(f)]);
}

/**
 * Findings of the product matching the query (first page), and whether there are more. With
 * `reportId`: only those the report created (`first_report_id`) or saw (`last_report_id`: its
 * sighting is the latest), merged by id.
 */
export async function gateMatches(
  api: Client<paths>,
  productId: string,
  q: string,
  options: { limit?: number; reportId?: string } = {},
): Promise<{ items: Finding[]; more: boolean }> {
  const limit = options.limit ?? 50;
  const scopes: Record<string, string>[] = options.reportId
    ? [{ first_report_id: options.reportId }, { last_report_id: options.reportId }]
    : [{}];
  const byId = new Map<string, Finding>();
  let more = false;
  try {
    for (const scope of scopes) {
      const page = must(
        await api.GET('/api/v1/findings', {
          params: { query: { product_id: productId, q, limit, ...scope } },
        }),
      ).data;
      for (const f of page.items) byId.set(f.id, f);
      more ||= page.next_cursor !== null;
    }
  } catch (error) {
    if (error instanceof CliError && error.code === 'query_syntax_error') {
      throw usageError(`--fail-on: ${error.message.replace(/^.*?: /, '')}`);
    }
    throw error;
  }
  const items = [...byId.values()].slice(0, limit);
  return { items, more: more || byId.size > limit };
}

/** Runs the query once (one row) so that a syntax error stops the command before it uploads. */
export async function checkQuery(api: Client<paths>, productId: string, q: string): Promise<void> {
  await gateMatches(api, productId, q, { limit: 1 });
}
