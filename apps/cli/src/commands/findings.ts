import { type Command, stringOption } from '../command';
import { EXIT, usageError } from '../errors';
import { findingsApi, must } from '../http/clients';
import { emit } from '../output';
import { GATE_HEADERS, gateRows } from './gate';
import { resolveProduct } from './product';

export function limitOption(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw usageError(`--limit must be a whole number from 1 to ${max}, not "${raw}"`);
  }
  return n;
}

export const findingsList: Command = {
  path: ['findings', 'list'],
  summary: 'List findings (the query language of the findings list)',
  usage: "[--query '<query>'] [--product <id|name>] [--limit <n>]",
  options: {
    query: { type: 'string', short: 'q' },
    product: { type: 'string' },
    limit: { type: 'string' },
  },
  positionals: { min: 0, max: 0 },
  help: `Options:
  -q, --query <query>   e.g. 'severity:critical|high status:new host:*prod*'
                        (docs/findings-service/query-language.md)
  --product <ref>       only this product (id, name or project/name)
  --limit <n>           at most n findings (1..500, default 50); --json adds next_cursor`,
  async run(ctx, values) {
    const limit = limitOption(stringOption(values, 'limit'), 50, 500);
    const { api } = await findingsApi(ctx.env, ctx.store);
    const ref = stringOption(values, 'product');
    const product = ref ? await resolveProduct(api, ref) : undefined;
    const q = stringOption(values, 'query');
    const result = await api
      .GET('/api/v1/findings', { params: { query: { q, product_id: product?.id, limit } } })
      .catch((error: unknown) => {
        const e = error as { code?: string; message: string };
        if (e.code === 'query_syntax_error') throw usageError(`--query: ${e.message}`);
        throw error;
      });
    const page = must(result).data;
    emit(ctx, page, GATE_HEADERS, gateRows(page.items), '(no findings)');
    return EXIT.ok;
  },
};
