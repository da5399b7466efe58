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

/** Findings of the product matching the query (first page), and whether there are more. */
export async function gateMatches(
  api: Client<paths>,
  productId: string,
  q: string,
  limit = 50,
): Promise<{ items: Finding[]; more: boolean }> {
  try {
    const page = must(
      await api.GET('/api/v1/findings', { params: { query: { product_id: productId, q, limit } } }),
    ).data;
    return { items: page.items, more: page.next_cursor !== null };
  } catch (error) {
    if (error instanceof CliError && error.code === 'query_syntax_error') {
      throw usageError(`--fail-on: ${error.message.replace(/^.*?: /, '')}`);
    }
    throw error;
  }
}

/** Runs the query once (one row) so that a syntax error stops the command before it uploads. */
export async function checkQuery(api: Client<paths>, productId: string, q: string): Promise<void> {
  await gateMatches(api, productId, q, 1);
}
