import { type Command, stringOption } from '../command';
import { EXIT, usageError } from '../errors';
import { certificatesApi, must } from '../http/clients';
import { saveBody } from '../http/download';
import { emit, shortTime } from '../output';
import { serialArg } from './device-actions';
import { UUID } from './product';

export const devicesRequestLogs: Command = {
  path: ['devices', 'request-logs'],
  summary: "Ask a device's agent for a log snapshot at its next check-in (cert-admin)",
  usage: '<serial> [--cancel]',
  options: { cancel: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  help: `Options:
  --cancel   withdraw the pending request (none pending: exit 5, log_request_not_found)

POST /api/v1/devices/{serial}/request-logs: the agent's next check-in carries upload_logs and
the agent uploads a gzip of its logs; asking again refreshes the request. The snapshot then
shows in \`platform devices logs <serial>\` and is fetched with
\`platform devices download-logs <serial> <snapshot-id>\` (docs/certificate-service/log-snapshots.md).`,
  async run(ctx, values, [raw]) {
    const serial = serialArg(raw);
    const { api } = await certificatesApi(ctx.env, ctx.store);
    const path = { params: { path: { serial } } };
    if (values.cancel === true) {
      await api.DELETE('/api/v1/devices/{serial}/request-logs', path);
      if (ctx.json) ctx.out(JSON.stringify({ serial, cancelled: true }));
      else ctx.out(`${serial}: log request withdrawn`);
      return EXIT.ok;
    }
    const r = must(await api.POST('/api/v1/devices/{serial}/request-logs', path));
    if (ctx.json) ctx.out(JSON.stringify(r, null, 2));
    else
      ctx.out(
        `${r.serial}: logs requested at ${shortTime(r.requested_at)}; the agent uploads them at its next check-in`,
      );
    return EXIT.ok;
  },
};

export const devicesLogs: Command = {
  path: ['devices', 'logs'],
  summary: "List a device's log snapshots of the last 7 days (cert-admin)",
  usage: '<serial>',
  options: {},
  positionals: { min: 1, max: 1 },
  help: 'Newest first: ID, UPLOADED, SIZE (bytes as sent, gzip), SHA256, EXPIRES.',
  async run(ctx, _values, [raw]) {
    const serial = serialArg(raw);
    const { api } = await certificatesApi(ctx.env, ctx.store);
    const r = must(
      await api.GET('/api/v1/devices/{serial}/logs', { params: { path: { serial } } }),
    );
    emit(
      ctx,
      r,
      ['ID', 'UPLOADED', 'SIZE', 'SHA256', 'EXPIRES'],
      r.items.map((s) => [
        s.id,
        shortTime(s.uploaded_at),
        s.size_bytes,
        s.sha256,
        shortTime(s.expires_at),
      ]),
      '(no log snapshots)',
    );
    return EXIT.ok;
  },
};

export const devicesDownloadLogs: Command = {
  path: ['devices', 'download-logs'],
  summary: 'Download one log snapshot (gzip, as the agent sent it; cert-admin, audited)',
  usage: '<serial> <snapshot-id> [--output <file>]',
  options: { output: { type: 'string', short: 'o' } },
  positionals: { min: 2, max: 2 },
  help: `Options:
  -o, --output <file>  where to write it (default logs-<serial>-<id>.log.gz in the current
                       directory; "-" for stdout). Written to <file>.partial (0600: logs may
                       hold personal data), renamed when complete.

Read it with \`zcat <file>\`. An unknown or expired snapshot is exit 5.`,
  async run(ctx, values, [rawSerial, rawId]) {
    const serial = serialArg(rawSerial);
    if (!UUID.test(rawId)) throw usageError(`not a snapshot id (a UUID): ${rawId}`);
    const id = rawId.toLowerCase();
    const given = stringOption(values, 'output');
    const output = given === '-' ? undefined : (given ?? `logs-${serial}-${id}.log.gz`);
    const { transport } = await certificatesApi(ctx.env, ctx.store);
    const url =
      `${transport.baseUrl}/api/v1/devices/${encodeURIComponent(serial)}/logs/` +
      encodeURIComponent(id);
    const res = await transport.send(
      () => new Request(url, { headers: { accept: 'application/gzip' } }),
    );
    await saveBody(ctx, res, output, 'download');
    if (output) {
      if (ctx.json) ctx.out(JSON.stringify({ serial, id, file: output }));
      else ctx.note(`log snapshot written to ${output}`);
    }
    return EXIT.ok;
  },
};
