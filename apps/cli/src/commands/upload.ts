import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { paths } from '../api/findings.gen';
import { type Command, stringOption } from '../command';
import { CliError, EXIT, usageError } from '../errors';
import { findingsApi } from '../http/clients';
import { postMultipart } from '../http/multipart';
import { emit } from '../output';
import { gateMatches, gateRows, GATE_HEADERS, checkQuery } from './gate';
import { resolveProduct } from './product';
import { waitForReport } from './wait';

type Accepted =
  paths['/api/v1/products/{product_id}/reports']['post']['responses'][202]['content']['application/json'];

const FORMATS = ['sarif', 'sonarqube'] as const;

async function checkFile(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw usageError(`${path} is not a file`);
    await access(path, constants.R_OK);
    return info.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code;
    throw usageError(`cannot read ${path}: ${why}`);
  }
}

function positiveSeconds(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw usageError(`--timeout: not a number of seconds: ${raw}`);
  return n;
}

export const upload: Command = {
  path: ['upload'],
  summary: 'Upload a SARIF or SonarQube report to a product (streamed); optionally wait and gate',
  usage:
    "<report> --product <id|name|project/name> [--format sarif|sonarqube] [--commit <sha>] [--wait] [--fail-on '<query>' [--fail-on-scope report|product]] [--timeout <s>]",
  options: {
    product: { type: 'string' },
    format: { type: 'string' },
    commit: { type: 'string' },
    wait: { type: 'boolean' },
    'fail-on': { type: 'string' },
    'fail-on-scope': { type: 'string' },
    timeout: { type: 'string' },
  },
  positionals: { min: 1, max: 1 },
  optionValues: { format: FORMATS, 'fail-on-scope': ['report', 'product'] },
  help: `Options:
  --product <ref>      product id, or its name (project/name when names repeat; names need a
                       person's session, service-account keys pass the id)
  --format <f>         sarif or sonarqube (default: the service detects it)
  --commit <sha>       the commit the report was made on
  --wait               wait until the report is ingested (polls with back-off)
  --fail-on <query>    implies --wait; then runs the findings query language (e.g.
                       'severity:high status:new') on the findings this report created or saw
                       and exits 1 when anything matches
  --fail-on-scope <s>  report (default): only this report's findings; product: every finding
                       of the product (older reports' too)
  --timeout <s>        how long --wait waits (default 900 s; exit 7 after)

The file is streamed (never read into memory whole). Exit codes: 0 ingested (and the gate did
not match), 1 the gate matched, 2 bad input, 3 credentials, 4 server unreachable, 5 refused,
6 the report failed to ingest, 7 timed out.`,
  async run(ctx, values, [path]) {
    const productRef = stringOption(values, 'product');
    if (!productRef) throw usageError('--product is required');
    const format = stringOption(values, 'format');
    if (format !== undefined && !(FORMATS as readonly string[]).includes(format)) {
      throw usageError(`--format must be sarif or sonarqube, not "${format}"`);
    }
    const failOn = stringOption(values, 'fail-on');
    if (failOn !== undefined && !failOn.trim()) throw usageError('--fail-on: empty query');
    const scope = stringOption(values, 'fail-on-scope') ?? 'report';
    if (scope !== 'report' && scope !== 'product') {
      throw usageError(`--fail-on-scope must be report or product, not "${scope}"`);
    }
    if (values['fail-on-scope'] !== undefined && failOn === undefined) {
      throw usageError('--fail-on-scope goes with --fail-on');
    }
    const timeout = positiveSeconds(stringOption(values, 'timeout'), 900);
    const size = await checkFile(path);
    const { api, transport } = await findingsApi(ctx.env, ctx.store);
    const product = await resolveProduct(api, productRef);
    // A bad gate query is refused before anything is uploaded.
    if (failOn !== undefined) await checkQuery(api, product.id, failOn);
    const url = `${transport.baseUrl}/api/v1/products/${encodeURIComponent(product.id)}/reports`;
    const commit = stringOption(values, 'commit');
    const fields: [string, string][] = [];
    if (format) fields.push(['format', format]);
    if (commit) fields.push(['commit_id', commit]);
    // A fresh file stream per attempt: the transport sends it again after a session refresh.
    const res = await transport.exchange((auth) =>
      postMultipart(url, { ...auth, accept: 'application/json' }, fields, {
        field: 'file',
        path,
        name: basename(path),
        size,
      }),
    );
    const accepted = ((await res.json()) as Accepted).data;
    if (!values.wait && failOn === undefined) {
      emit(
        ctx,
        accepted,
        ['REPORT', 'STATUS', 'PRODUCT'],
        [[accepted.report_id, accepted.status, product.label]],
      );
      return EXIT.ok;
    }
    if (!ctx.json)
      ctx.note(`uploaded ${basename(path)} (${size} bytes) as report ${accepted.report_id}`);
    const report = await waitForReport(ctx, api, accepted.report_id, timeout);
    if (report.status === 'failed') {
      if (ctx.json) ctx.out(JSON.stringify({ report }, null, 2));
      throw new CliError(
        EXIT.failed,
        `report ${report.id} failed: ${report.failure_code ?? 'failed'}${report.failure_reason ? ` — ${report.failure_reason}` : ''}`,
        report.failure_code ?? undefined,
      );
    }
    const c = report.counts;
    const summary = `report ${report.id} ingested: ${c.results} results, ${c.new} new, ${c.updated} updated, ${c.renewed} renewed`;
    if (failOn === undefined) {
      if (ctx.json) ctx.out(JSON.stringify({ report }, null, 2));
      else ctx.out(summary);
      return EXIT.ok;
    }
    const gate = await gateMatches(api, product.id, failOn, {
      reportId: scope === 'report' ? report.id : undefined,
    });
    if (ctx.json) {
      ctx.out(
        JSON.stringify(
          { report, gate: { query: failOn, scope, matched: gate.items.length > 0, ...gate } },
          null,
          2,
        ),
      );
    } else {
      ctx.out(summary);
      const of = scope === 'report' ? 'of this report' : 'of the product';
      if (gate.items.length === 0) ctx.out(`gate passed: no finding ${of} matches '${failOn}'`);
      else {
        ctx.out(
          `gate matched: ${gate.items.length}${gate.more ? '+' : ''} findings ${of} match '${failOn}'`,
        );
        emit(ctx, gate, GATE_HEADERS, gateRows(gate.items));
      }
    }
    return gate.items.length > 0 ? EXIT.gateMatched : EXIT.ok;
  },
};
