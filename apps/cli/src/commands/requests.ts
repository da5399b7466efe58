import type { components } from '../api/certificates.gen';
import { type Command, stringOption } from '../command';
import { CliError, EXIT, usageError } from '../errors';
import { certificatesApi, must } from '../http/clients';
import { emit, shortTime } from '../output';
import { limitOption } from './findings';
import { UUID } from './product';

type Schemas = components['schemas'];
type Status = NonNullable<Schemas['CertificateRequestDto']['status']>;
type Purpose = Schemas['CertificateRequestDto']['purpose'];

const STATUSES: readonly Status[] = [
  'pending',
  'approved',
  'ca_pending',
  'issued',
  'rejected',
  'failed',
  'superseded',
  'cancelled',
];
export const PURPOSES: readonly Purpose[] = ['wifi', 'user_mtls', 'ad_logon', 'ssh', 'k8s', 'vpn'];

export function oneOf<T extends string>(
  name: string,
  raw: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (raw === undefined) return undefined;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw usageError(`--${name} must be one of ${allowed.join(', ')}, not "${raw}"`);
}

function requestIds(ids: string[]): string[] {
  const bad = ids.filter((id) => !UUID.test(id));
  if (bad.length) throw usageError(`not a request id: ${bad.join(', ')}`);
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

export const requestsList: Command = {
  path: ['requests', 'list'],
  summary: 'List certificate requests',
  usage: '[--status <s>] [--purpose <p>] [--serial <serial>] [--limit <n>] [--page <n>]',
  options: {
    status: { type: 'string' },
    purpose: { type: 'string' },
    serial: { type: 'string' },
    limit: { type: 'string' },
    page: { type: 'string' },
  },
  positionals: { min: 0, max: 0 },
  help: `Options:
  --status <s>     ${STATUSES.join(', ')}
  --purpose <p>    ${PURPOSES.join(', ')}
  --serial <s>     exact device serial
  --limit <n>      1..500 (default 50); --page <n> for the next pages`,
  async run(ctx, values) {
    const query = {
      status: oneOf('status', stringOption(values, 'status'), STATUSES),
      purpose: oneOf('purpose', stringOption(values, 'purpose'), PURPOSES),
      serial: stringOption(values, 'serial'),
      limit: limitOption(stringOption(values, 'limit'), 50, 500),
      page: limitOption(stringOption(values, 'page'), 1, 100000),
    };
    const { api } = await certificatesApi(ctx.env, ctx.store);
    const page = must(await api.GET('/api/v1/requests', { params: { query } }));
    emit(
      ctx,
      page,
      ['ID', 'SERIAL', 'PURPOSE', 'STATUS', 'CREATED', 'DECIDED BY'],
      page.items.map((r) => [
        r.id,
        r.serial,
        r.purpose,
        r.status,
        shortTime(r.created_at),
        r.decided_by,
      ]),
      '(no requests)',
    );
    if (!ctx.json && page.total > page.items.length) {
      ctx.note(`${page.items.length} of ${page.total} (page ${page.page}; --page for more)`);
    }
    return EXIT.ok;
  },
};

function finish(
  ctx: Parameters<Command['run']>[0],
  rows: { request_id: string; status: string; error?: string; serial?: string }[],
  value: unknown,
): number {
  emit(
    ctx,
    value,
    ['REQUEST', 'RESULT', 'DETAIL'],
    rows.map((r) => [r.request_id, r.status, r.error ?? r.serial]),
  );
  const failed = rows.filter((r) => r.status === 'error');
  if (failed.length) {
    throw new CliError(
      EXIT.failed,
      `${failed.length} of ${rows.length} requests failed (${failed.map((r) => r.error).join(', ')})`,
    );
  }
  return EXIT.ok;
}

export const requestsApprove: Command = {
  path: ['requests', 'approve'],
  summary: 'Approve pending certificate requests (issues the certificates)',
  usage: '<request-id...>',
  options: {},
  positionals: { min: 1 },
  help: 'Approves each request (cert-admin, cert-approver or an auto-approver token). A row the\nservice could not approve is printed with its error code and the exit code is 6.',
  async run(ctx, _values, ids) {
    const { api } = await certificatesApi(ctx.env, ctx.store);
    const result = must(
      await api.POST('/api/v1/requests/approve', { body: { request_ids: requestIds(ids) } }),
    );
    return finish(ctx, result.results, result);
  },
};

export const requestsReject: Command = {
  path: ['requests', 'reject'],
  summary: 'Reject pending certificate requests',
  usage: '<request-id...> [--reason <text>]',
  options: { reason: { type: 'string' } },
  positionals: { min: 1 },
  help: 'Rejects each request (cert-admin). --reason is kept with the decision (500 characters).',
  async run(ctx, values, ids) {
    const reason = stringOption(values, 'reason');
    if (reason !== undefined && reason.length > 500)
      throw usageError('--reason: at most 500 characters');
    const { api } = await certificatesApi(ctx.env, ctx.store);
    const result = must(
      await api.POST('/api/v1/requests/reject', { body: { request_ids: requestIds(ids), reason } }),
    );
    return finish(ctx, result.results, result);
  },
};
