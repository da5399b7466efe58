import { type Command, stringOption } from '../command';
import { EXIT } from '../errors';
import { certificatesApi, must } from '../http/clients';
import { emit, shortTime } from '../output';
import { limitOption } from './findings';
import { oneOf, PURPOSES } from './requests';

export const devicesList: Command = {
  path: ['devices', 'list'],
  summary: 'List enrolled devices',
  usage: '[--serial <part>] [--owner <o>] [--purpose <p>] [--blocked] [--limit <n>] [--page <n>]',
  options: {
    serial: { type: 'string' },
    owner: { type: 'string' },
    purpose: { type: 'string' },
    blocked: { type: 'boolean' },
    limit: { type: 'string' },
    page: { type: 'string' },
  },
  positionals: { min: 0, max: 0 },
  help: `Options:
  --serial <part>   case-insensitive part of the serial
  --owner <o>       the owner
  --purpose <p>     ${PURPOSES.join(', ')} (devices with it assigned)
  --blocked         only blocked devices
  --limit <n>       1..500 (default 50); --page <n> for the next pages`,
  async run(ctx, values) {
    const query = {
      serial: stringOption(values, 'serial'),
      owner: stringOption(values, 'owner'),
      purpose: oneOf('purpose', stringOption(values, 'purpose'), PURPOSES),
      blocked: values.blocked === true ? true : undefined,
      limit: limitOption(stringOption(values, 'limit'), 50, 500),
      page: limitOption(stringOption(values, 'page'), 1, 100000),
    };
    const { api } = await certificatesApi(ctx.env, ctx.store);
    const page = must(await api.GET('/api/v1/devices', { params: { query } }));
    emit(
      ctx,
      page,
      ['SERIAL', 'HOSTNAME', 'PLATFORM', 'OWNER', 'BLOCKED', 'PURPOSES', 'LAST SEEN'],
      page.items.map((d) => [
        d.serial,
        d.hostname,
        d.platform,
        d.owner,
        d.blocked ? 'yes' : 'no',
        d.effective_purposes.join(','),
        shortTime(d.last_seen_at),
      ]),
      '(no devices)',
    );
    return EXIT.ok;
  },
};
