import { type Command } from '../command';
import { EXIT } from '../errors';
import { certificatesApi, must } from '../http/clients';
import { emit, shortTime } from '../output';

export const licenseStatus: Command = {
  path: ['license', 'status'],
  summary: "Show the certificate service's licence: mode, devices, seats per purpose",
  usage: '',
  options: {},
  positionals: { min: 0, max: 0 },
  help: 'The table is one row per purpose with seats; the licence itself is on stderr (--json: all).',
  async run(ctx) {
    const { api } = await certificatesApi(ctx.env, ctx.store);
    const s = must(await api.GET('/api/v1/license/status'));
    if (!ctx.json) {
      ctx.out(
        `licence: ${s.mode} (${s.tier}), issued to ${s.issued_to || '-'}, expires ` +
          `${shortTime(s.expires_at) ?? 'never'}`,
      );
      ctx.out(`devices: ${s.active_count} of ${s.max_devices} (high water ${s.high_water})`);
      if (s.tamper) ctx.out(`TAMPER: ${s.tamper_reason}`);
      if (!s.purpose_seats_limited) ctx.out('seats per purpose: not limited');
    }
    emit(
      ctx,
      s,
      ['PURPOSE', 'BOUGHT', 'USED', 'FREE'],
      s.purpose_seats.map((p) => [
        p.purpose,
        s.purpose_seats_limited ? p.bought : '-',
        p.used,
        s.purpose_seats_limited ? p.free : '-',
      ]),
      '(no purpose seats)',
    );
    return EXIT.ok;
  },
};
