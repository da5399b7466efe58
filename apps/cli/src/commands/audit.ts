import { type Command, stringOption } from '../command';
import { EXIT, usageError } from '../errors';
import { transportFor } from '../http/clients';
import { saveBody } from '../http/download';

function dateOption(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) throw usageError(`--${name}: not an ISO 8601 date or date-time: ${raw}`);
  return new Date(ms).toISOString();
}

export const auditExport: Command = {
  path: ['audit', 'export'],
  summary: "Export the certificate service's audit log as CSV (newest first)",
  usage: '[--since <date>] [--until <date>] [--output <file>]',
  options: {
    since: { type: 'string' },
    until: { type: 'string' },
    output: { type: 'string', short: 'o' },
  },
  positionals: { min: 0, max: 0 },
  help: `Options:
  --since <d>      ISO 8601 date or date-time, inclusive (2026-11-01, 2026-11-01T08:00:00Z)
  --until <d>      exclusive upper bound
  --output <file>  write the CSV there (written to <file>.partial, renamed when complete);
                   default stdout

GET /api/v1/audit.csv (cert-admin; up to 100 000 rows), streamed: never held in memory.
--json is accepted and ignored (the output is CSV).`,
  async run(ctx, values) {
    const query = new URLSearchParams();
    const since = dateOption('since', stringOption(values, 'since'));
    const until = dateOption('until', stringOption(values, 'until'));
    if (since) query.set('since', since);
    if (until) query.set('until', until);
    const output = stringOption(values, 'output');
    const transport = await transportFor('certificates', ctx.env, ctx.store);
    const url = `${transport.baseUrl}/api/v1/audit.csv${query.size ? `?${query}` : ''}`;
    const res = await transport.send(() => new Request(url, { headers: { accept: 'text/csv' } }));
    await saveBody(ctx, res, output, 'export');
    if (!output) return EXIT.ok;
    ctx.note(`audit log written to ${output}`);
    return EXIT.ok;
  },
};
