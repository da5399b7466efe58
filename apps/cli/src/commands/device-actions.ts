import type { components } from '../api/certificates.gen';
import { type Command } from '../command';
import { CliError, EXIT, usageError } from '../errors';
import { certificatesApi, must } from '../http/clients';
import { emit, shortTime, type Cell } from '../output';

type Device = components['schemas']['DeviceDto'];

/** A device serial as the service takes it in a path: printable, no slash, ≤ 128. */
export function serialArg(raw: string, what = 'device serial'): string {
  if (!raw || raw.length > 128 || !/^[\x21-\x7e]+$/.test(raw) || raw.includes('/')) {
    throw usageError(`not a ${what}: ${raw}`);
  }
  return raw;
}

function keyValues(ctx: Parameters<Command['run']>[0], value: unknown, rows: [string, Cell][]) {
  emit(ctx, value, ['FIELD', 'VALUE'], rows);
}

export const devicesGet: Command = {
  path: ['devices', 'get'],
  summary: 'Show one device (owner, purposes, block, TPM, last seen)',
  usage: '<serial>',
  options: {},
  positionals: { min: 1, max: 1 },
  help: 'The serial is matched exactly. A serial the service does not know is exit 5.',
  async run(ctx, _values, [raw]) {
    const serial = serialArg(raw);
    const { api } = await certificatesApi(ctx.env, ctx.store);
    // the list matches a part of the serial: page on until the exact one (or the end)
    let d: Device | undefined;
    for (let page = 1; !d; page++) {
      const got = must(
        await api.GET('/api/v1/devices', { params: { query: { serial, limit: 500, page } } }),
      );
      d = got.items.find((x) => x.serial === serial);
      if (got.items.length === 0 || page * 500 >= got.total) break;
    }
    if (!d) throw new CliError(EXIT.refused, `no device with serial ${serial}`, 'device_not_found');
    keyValues(ctx, d, [
      ['serial', d.serial],
      ['hostname', d.hostname],
      ['platform', d.platform],
      ['owner', d.owner],
      ['agent version', d.agent_version],
      ['blocked', d.blocked ? `yes (since ${shortTime(d.blocked_at)})` : 'no'],
      ['assigned purposes', d.assigned_purposes.join(',')],
      ['effective purposes', d.effective_purposes.join(',')],
      [
        'overrides',
        Object.entries(d.purpose_overrides ?? {})
          .map(([p, v]) => `${p}=${v}`)
          .join(','),
      ],
      ['tpm bound', d.tpm_bound ? 'yes' : 'no'],
      ['created', shortTime(d.created_at)],
      ['last seen', shortTime(d.last_seen_at)],
    ]);
    return EXIT.ok;
  },
};

export const devicesUnblock: Command = {
  path: ['devices', 'unblock'],
  summary: 'Lift the block a full device revocation set (cert-admin)',
  usage: '<serial>',
  options: {},
  positionals: { min: 1, max: 1 },
  help: 'Repeatable: an unblocked device answers the same. Pending requests are untouched.',
  async run(ctx, _values, [raw]) {
    const serial = serialArg(raw);
    const { api } = await certificatesApi(ctx.env, ctx.store);
    const r = must(
      await api.POST('/api/v1/devices/{serial}/unblock', { params: { path: { serial } } }),
    );
    if (ctx.json) ctx.out(JSON.stringify(r, null, 2));
    else ctx.out(`${r.serial}: ${r.blocked ? 'still blocked' : 'not blocked'}`);
    return EXIT.ok;
  },
};

export const devicesRevoke: Command = {
  path: ['devices', 'revoke'],
  summary: 'Revoke every certificate of a device and block it (cert-admin)',
  usage: '<serial>',
  options: {},
  positionals: { min: 1, max: 1 },
  help: `Revokes every active certificate (reason cessationOfOperation), the device's SSH keys and
certificates, releases its licence slot and blocks it (\`devices unblock\` lifts the block).
One row per certificate. When the issuer failed for some certificate or the SSH cascade
failed (the service's 207), the device is NOT blocked, the failed rows carry their error and
the exit code is 6; running the command again retries only what is left.`,
  async run(ctx, _values, [raw]) {
    const serial = serialArg(raw);
    const { api } = await certificatesApi(ctx.env, ctx.store);
    const r = must(
      await api.POST('/api/v1/devices/{serial}/revoke', { params: { path: { serial } } }),
    );
    emit(
      ctx,
      r,
      ['CERTIFICATE', 'RESULT', 'DETAIL'],
      r.certificates.map((c) => [c.serial, c.status, c.error ?? c.warning]),
      '(no active certificates)',
    );
    if (!ctx.json) {
      ctx.note(
        `${r.serial}: ${r.status}; blocked: ${r.blocked ? 'yes' : 'no'}; licence slot released: ` +
          `${r.slot_released ? 'yes' : 'no'}; SSH: ${r.ssh.ok ? 'ok' : `failed (${r.ssh.failed.join(',')})`}`,
      );
    }
    if (r.status !== 'revoked') {
      const failed = r.certificates.filter((c) => c.status === 'error');
      throw new CliError(
        EXIT.failed,
        `device ${r.serial} not fully revoked (${r.status}): ${failed.length} of ` +
          `${r.certificates.length} certificates failed${r.ssh.ok ? '' : ', SSH cascade failed'}; run it again`,
        r.status,
      );
    }
    return EXIT.ok;
  },
};
