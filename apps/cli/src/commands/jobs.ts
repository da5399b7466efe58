import type { components } from '../api/findings.gen';
import { type Command, stringOption } from '../command';
import { EXIT } from '../errors';
import { findingsApi, must } from '../http/clients';
import { emit, shortTime } from '../output';
import { limitOption } from './findings';
import { oneOf } from './requests';

type Job = components['schemas']['JobDto'];
type State = NonNullable<Job['state']>;
const STATES: readonly State[] = ['waiting', 'active', 'delayed', 'completed', 'failed'];

export const jobsList: Command = {
  path: ['jobs', 'list'],
  summary: 'List background jobs (newest first), e.g. the ingestion of one report',
  usage: '[--report <report-id>] [--state <s>] [--limit <n>]',
  options: {
    report: { type: 'string' },
    state: { type: 'string' },
    limit: { type: 'string' },
  },
  positionals: { min: 0, max: 0 },
  help: `Options:
  --report <id>   only the jobs of this report (the id upload prints)
  --state <s>     ${STATES.join(', ')}
  --limit <n>     1..500 (default 50)

A person's session: the jobs API takes no service-account keys.`,
  async run(ctx, values) {
    const query = {
      report_id: stringOption(values, 'report'),
      state: oneOf('state', stringOption(values, 'state'), STATES),
      limit: limitOption(stringOption(values, 'limit'), 50, 500),
    };
    const { api } = await findingsApi(ctx.env, ctx.store);
    const jobs = must(await api.GET('/api/v1/jobs', { params: { query } })).data;
    emit(
      ctx,
      jobs,
      ['ID', 'KIND', 'STATE', 'REPORT', 'PRODUCT', 'CREATED'],
      jobs.map((j) => [
        j.id,
        j.kind,
        j.state,
        j.report_id,
        j.product_name,
        shortTime(j.created_at),
      ]),
      '(no jobs)',
    );
    return EXIT.ok;
  },
};

export const jobsGet: Command = {
  path: ['jobs', 'get'],
  summary: 'Show an ingestion job (state, report, counts, failure)',
  usage: '<job-id>',
  options: {},
  positionals: { min: 1, max: 1 },
  help: "Prints the job of GET /api/v1/jobs/{id} (a person's session: the jobs API takes no keys).",
  async run(ctx, _values, [id]) {
    const { api } = await findingsApi(ctx.env, ctx.store);
    const job = must(await api.GET('/api/v1/jobs/{id}', { params: { path: { id } } })).data;
    const counts = job.counts
      ? `${job.counts.results} results, ${job.counts.new} new, ${job.counts.updated} updated`
      : undefined;
    const failure = job.failure_code
      ? `${job.failure_code}: ${job.failure_reason ?? ''}`
      : undefined;
    emit(
      ctx,
      job,
      ['FIELD', 'VALUE'],
      [
        ['id', job.id],
        ['kind', job.kind],
        ['state', job.state],
        ['report', job.report_id],
        ['product', job.product_name ?? job.product_id],
        ['file', job.file_name],
        ['attempts', `${job.attempts_made}/${job.attempts}`],
        ['counts', counts],
        ['failure', failure],
        ['created', shortTime(job.created_at)],
        ['finished', shortTime(job.finished_at)],
      ],
    );
    return EXIT.ok;
  },
};
