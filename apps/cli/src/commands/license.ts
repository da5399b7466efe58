import { readFile, stat } from 'node:fs/promises';
import type { components } from '../api/certificates.gen';
import { type Command, type Context } from '../command';
import { EXIT, usageError } from '../errors';
import { certificatesApi, must } from '../http/clients';
import { emit, shortTime } from '../output';

type LicenseStatus = components['schemas']['LicenseStatusDto'];

function printStatus(ctx: Context, s: LicenseStatus): void {
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
}

export const licenseStatus: Command = {
  path: ['license', 'status'],
  summary: "Show the certificate service's licence: mode, devices, seats per purpose",
  usage: '',
  options: {},
  positionals: { min: 0, max: 0 },
  help: 'The table is one row per purpose with seats; the licence itself is on stderr (--json: all).',
  async run(ctx) {
    const { api } = await certificatesApi(ctx.env, ctx.store);
    printStatus(ctx, must(await api.GET('/api/v1/license/status')));
    return EXIT.ok;
  },
};

/** The `.lic` file as the service takes it: its text, checked to be a certsvc-license/v1 file. */
async function licenseFile(path: string): Promise<string> {
  let text: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw usageError(`${path} is not a file`);
    if (info.size > 1024 * 1024) throw usageError(`${path} is not a licence file (over 1 MiB)`);
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code) throw error;
    throw usageError(`cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code}`);
  }
  let format: unknown;
  try {
    format = (JSON.parse(text) as { format?: unknown }).format;
  } catch {
    format = undefined;
  }
  if (format !== 'certsvc-license/v1') {
    throw usageError(`${path} is not a licence file (a certsvc-license/v1 .lic file)`);
  }
  return text.trim();
}

export const licenseActivate: Command = {
  path: ['license', 'activate'],
  summary: 'Activate a licence file (.lic) on the certificate service',
  usage: '<file.lic>',
  options: {},
  positionals: { min: 1, max: 1 },
  help: `POST /api/v1/license/activate with the file's base64 (cert-admin); prints the new status
like license status. A file that is missing or not a certsvc-license/v1 file is exit 2 before
anything is sent; a licence the service refuses (signature, another deployment, expired) is
exit 5 with its reason (license_invalid), and the previous licence stays in force.`,
  async run(ctx, _values, [path]) {
    const text = await licenseFile(path);
    const { api } = await certificatesApi(ctx.env, ctx.store);
    const s = must(
      await api.POST('/api/v1/license/activate', {
        body: { license_b64: Buffer.from(text, 'utf8').toString('base64') },
      }),
    );
    if (!ctx.json) ctx.note(`licence ${path} activated`);
    printStatus(ctx, s);
    return EXIT.ok;
  },
};
