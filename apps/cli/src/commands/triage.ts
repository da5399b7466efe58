import type { components } from '../api/findings.gen';
import { type Command, type Context, stringOption } from '../command';
import { EXIT, usageError } from '../errors';
import { findingsApi, must } from '../http/clients';
import { emit, shortTime, type Cell } from '../output';
import { UUID } from './product';

type Finding = components['schemas']['FindingDto'];
type Settable = NonNullable<components['schemas']['UpdateFindingDto']['status']>;

/** The states a person may set (renewed only comes from a report). */
export const SETTABLE: readonly Settable[] = [
  'new',
  'needs_review',
  'in_progress',
  'confirmed',
  'waiting',
  'risk_accepted',
  'wont_fix',
  'false_positive',
  'fixed',
];

export function findingId(raw: string): string {
  if (!UUID.test(raw)) throw usageError(`not a finding id (a UUID): ${raw}`);
  return raw.toLowerCase();
}

/** An ISO 8601 date or date-time, as the service's ISO string. */
export function isoOption(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const t = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw)
    ? Date.parse(raw)
    : NaN;
  if (Number.isNaN(t)) throw usageError(`--${name}: not an ISO 8601 date or date-time: ${raw}`);
  return new Date(t).toISOString();
}

function findingRows(f: Finding): [string, Cell][] {
  return [
    ['id', f.id],
    ['title', f.title],
    ['severity', f.severity],
    ['status', f.status],
    ['project/product', `${f.project_name}/${f.product_name}`],
    ['rule', f.rule_id],
    ['scanner', f.scanner],
    ['location', f.location.label],
    ['cve', f.cve],
    ['cwe', f.cwe.join(',')],
    ['component', f.component ? `${f.component} ${f.component_version ?? ''}`.trim() : null],
    ['tags', [...f.tags, ...f.report_tags, ...f.enrichment_tags].join(',')],
    ['suppressed', f.suppressed ? 'yes' : 'no'],
    ['assignee', f.assignee?.email],
    ['risk accepted until', shortTime(f.risk_accepted_until)],
    [
      'waiting',
      f.waiting_reason ? `${f.waiting_reason} (until ${shortTime(f.waiting_until)})` : null,
    ],
    ['sla due', shortTime(f.sla_due_at)],
    ['ticket', f.ticket_key],
    ['first seen', shortTime(f.first_seen_at)],
    ['last seen', shortTime(f.last_seen_at)],
  ];
}

export const findingsGet: Command = {
  path: ['findings', 'get'],
  summary: 'Show one finding',
  usage: '<finding-id>',
  options: {},
  positionals: { min: 1, max: 1 },
  help: `FIELD/VALUE rows; --json prints the service's finding object (description, sources,
fingerprints included). Needs read_findings on its product; unknown or not visible: exit 5.`,
  async run(ctx, _values, [raw]) {
    const id = findingId(raw);
    const { api } = await findingsApi(ctx.env, ctx.store);
    const f = must(await api.GET('/api/v1/findings/{id}', { params: { path: { id } } })).data;
    emit(ctx, f, ['FIELD', 'VALUE'], findingRows(f));
    return EXIT.ok;
  },
};

function settable(raw: string | undefined): Settable {
  if (!raw) throw usageError('--to is required');
  if (!(SETTABLE as readonly string[]).includes(raw)) {
    throw usageError(`--to must be one of ${SETTABLE.join(', ')} (not "${raw}")`);
  }
  return raw as Settable;
}

async function patchOne(ctx: Context, id: string, to: Settable, reason?: string, until?: string) {
  const { api } = await findingsApi(ctx.env, ctx.store);
  const body: components['schemas']['UpdateFindingDto'] = { status: to };
  if (to === 'waiting') {
    body.waiting_reason = reason;
    body.waiting_until = until;
  } else {
    if (reason !== undefined) body.justification = reason;
    if (until !== undefined) body.risk_accepted_until = until;
  }
  const f = must(await api.PATCH('/api/v1/findings/{id}', { params: { path: { id } }, body })).data;
  emit(ctx, f, ['ID', 'STATUS', 'SEVERITY', 'TITLE'], [[f.id, f.status, f.severity, f.title]]);
}

export const findingsStatus: Command = {
  path: ['findings', 'status'],
  summary: 'Move findings to another state (one: PATCH; several: the bulk status route)',
  usage: '<finding-id...> --to <state> [--reason <text>] [--until <date>]',
  options: {
    to: { type: 'string' },
    reason: { type: 'string' },
    until: { type: 'string' },
  },
  positionals: { min: 1, max: 500 },
  optionValues: { to: SETTABLE },
  help: `Options:
  --to <state>      ${SETTABLE.join(', ')}
  --reason <text>   why (the justification): required for risk_accepted, false_positive and
                    wont_fix; for waiting, the waiting reason
  --until <date>    ISO 8601: the review date of risk_accepted, the end of waiting (at most 30
                    days ahead)

One id: PATCH /api/v1/findings/{id}, the finding's new row. Several (up to 500):
POST /api/v1/findings/bulk-status, one row MATCHED/CHANGED/VIOLATIONS_CLOSED (waiting cannot be
set in a bulk change: the service refuses it, exit 5). Needs write_findings (granted to nobody
by default) and a person's session for the bulk route. A refusal (missing reason, bad date)
is exit 5 with the service's code.`,
  async run(ctx, values, raws) {
    const ids = [...new Set(raws.map(findingId))];
    const to = settable(stringOption(values, 'to'));
    const reason = stringOption(values, 'reason');
    const until = isoOption('until', stringOption(values, 'until'));
    if (ids.length === 1) {
      await patchOne(ctx, ids[0], to, reason, until);
      return EXIT.ok;
    }
    const { api } = await findingsApi(ctx.env, ctx.store);
    const result = must(
      await api.POST('/api/v1/findings/bulk-status', {
        body: {
          finding_ids: ids,
          status: to,
          justification: reason,
          risk_accepted_until: until,
        },
      }),
    ).data;
    emit(
      ctx,
      result,
      ['MATCHED', 'CHANGED', 'VIOLATIONS_CLOSED'],
      [[result.matched, result.changed, result.violations_closed]],
    );
    if (!ctx.json && result.matched < ids.length) {
      ctx.note(
        `${ids.length - result.matched} of the ${ids.length} ids are not findings you can change`,
      );
    }
    return EXIT.ok;
  },
};
