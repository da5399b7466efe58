import type { Client } from 'openapi-fetch';
import type { components, paths } from '../api/findings.gen';
import { type Command, stringOption } from '../command';
import { EXIT, usageError } from '../errors';
import { findingsApi, must } from '../http/clients';
import { emit, shortTime } from '../output';
import { UUID } from './product';

type Rule = components['schemas']['SuppressionRuleDto'];

/** `--project`: an id as it is, else a project name among those the caller sees. */
async function resolveProject(api: Client<paths>, ref: string | undefined): Promise<string> {
  if (!ref) throw usageError('--project is required');
  if (UUID.test(ref)) return ref.toLowerCase();
  const projects = must(await api.GET('/api/v1/projects')).data;
  const hit = projects.filter((p) => p.name.toLowerCase() === ref.toLowerCase());
  if (hit.length === 1) return hit[0].id;
  throw usageError(`--project: no project named "${ref}" that you can see`);
}

const HEADERS = ['ID', 'NAME', 'ENABLED', 'SUPPRESSED', 'QUERY', 'REASON'];
const row = (r: Rule) => [r.id, r.name, r.enabled, r.suppressed_findings, r.query, r.reason];

export const suppressCreate: Command = {
  path: ['suppress', 'create'],
  summary: "Create a project's suppression rule (optionally apply it to existing findings)",
  usage:
    "--project <id|name> --name <name> --query '<rule>' [--reason <text>] [--disabled] [--run]",
  options: {
    project: { type: 'string' },
    name: { type: 'string' },
    query: { type: 'string', short: 'q' },
    reason: { type: 'string' },
    disabled: { type: 'boolean' },
    run: { type: 'boolean' },
  },
  positionals: { min: 0, max: 0 },
  help: `Options:
  --project <ref>    the project (id or name)
  --name <name>      what the rule is (1-200 characters)
  -q, --query <rule> field terms of the query language over scanner, rule, file_path, host,
                     component, cve, cwe, severity, tags (docs/findings-service/suppression.md),
                     e.g. 'scanner:semgrep file_path:tests/*'
  --reason <text>    why it is suppressed
  --disabled         store it switched off
  --run              also apply it to the project's existing findings now (a background run;
                     new reports are matched at ingestion anyway)

A person's session with write_findings on the project (analyst and up); keys are refused (3).
A rule the service refuses (full text, matches everything, syntax) is exit 5 with its reason.`,
  async run(ctx, values) {
    const name = stringOption(values, 'name');
    const query = stringOption(values, 'query');
    if (!name?.trim()) throw usageError('--name is required');
    if (!query?.trim()) throw usageError('--query is required');
    const { api } = await findingsApi(ctx.env, ctx.store);
    const id = await resolveProject(api, stringOption(values, 'project'));
    let rule = must(
      await api.POST('/api/v1/projects/{id}/suppression-rules', {
        params: { path: { id } },
        body: {
          name,
          query,
          reason: stringOption(values, 'reason') ?? null,
          enabled: values.disabled !== true,
        },
      }),
    ).data;
    if (values.run === true) {
      rule = must(
        await api.POST('/api/v1/projects/{id}/suppression-rules/{rule_id}/run', {
          params: { path: { id, rule_id: rule.id } },
        }),
      ).data;
      if (!ctx.json) ctx.note(`run started (${rule.last_run?.job_id ?? 'job'}); see suppress list`);
    }
    emit(ctx, rule, HEADERS, [row(rule)]);
    return EXIT.ok;
  },
};

export const suppressList: Command = {
  path: ['suppress', 'list'],
  summary: "List a project's suppression rules",
  usage: '--project <id|name>',
  options: { project: { type: 'string' } },
  positionals: { min: 0, max: 0 },
  help: `Oldest first, with the number of findings each suppresses now; --json adds the last run
(state, done/total, matched). A person's session with membership in the project.`,
  async run(ctx, values) {
    const { api } = await findingsApi(ctx.env, ctx.store);
    const id = await resolveProject(api, stringOption(values, 'project'));
    const rules = must(
      await api.GET('/api/v1/projects/{id}/suppression-rules', { params: { path: { id } } }),
    ).data;
    emit(
      ctx,
      rules,
      [...HEADERS, 'LAST RUN'],
      rules.map((r) => [
        ...row(r),
        r.last_run ? `${r.last_run.state} ${shortTime(r.last_run.finished_at) ?? ''}`.trim() : null,
      ]),
      '(no suppression rules)',
    );
    return EXIT.ok;
  },
};

export const suppressDelete: Command = {
  path: ['suppress', 'delete'],
  summary: 'Delete a suppression rule (its findings are no longer suppressed by it)',
  usage: '<rule-id> --project <id|name>',
  options: { project: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  help: 'Needs write_findings on the project. An unknown rule is exit 5.',
  async run(ctx, values, [raw]) {
    if (!UUID.test(raw)) throw usageError(`not a rule id (a UUID): ${raw}`);
    const { api } = await findingsApi(ctx.env, ctx.store);
    const id = await resolveProject(api, stringOption(values, 'project'));
    await api.DELETE('/api/v1/projects/{id}/suppression-rules/{rule_id}', {
      params: { path: { id, rule_id: raw.toLowerCase() } },
    });
    if (ctx.json) ctx.out(JSON.stringify({ id: raw.toLowerCase(), deleted: true }));
    else ctx.out(`Deleted suppression rule ${raw.toLowerCase()}`);
    return EXIT.ok;
  },
};
