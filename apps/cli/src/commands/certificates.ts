import type { components } from '../api/certificates.gen';
import { type Command, stringOption } from '../command';
import { EXIT, usageError } from '../errors';
import { certificatesApi, must } from '../http/clients';
import { emit, shortTime } from '../output';
import { oneOf } from './requests';

type Reason = NonNullable<components['schemas']['RevokeCertificateDto']['reason']>;
const REASONS: readonly Reason[] = [
  'unspecified',
  'keyCompromise',
  'cACompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'certificateHold',
  'privilegeWithdrawn',
  'aACompromise',
];

export const certificatesRevoke: Command = {
  path: ['certificates', 'revoke'],
  summary: 'Revoke one certificate by its serial (cert-admin)',
  usage: '<serial> [--reason <reason>]',
  options: { reason: { type: 'string' } },
  optionValues: { reason: REASONS },
  positionals: { min: 1, max: 1 },
  help: `The serial is the certificate's hex serial (as \`requests approve\` prints it).
Options:
  --reason <r>   ${REASONS.join(', ')} (default unspecified)

An issuer that cannot revoke (SCEP) marks it revoked here only: the warning is printed.
Revoking an already revoked certificate answers its row as it is (exit 0); an unknown
serial is exit 5 (certificate_not_found).`,
  async run(ctx, values, [raw]) {
    const serial = raw.toLowerCase();
    if (!/^[0-9a-f]{1,64}$/.test(serial)) throw usageError(`not a certificate serial: ${raw}`);
    const reason = oneOf('reason', stringOption(values, 'reason'), REASONS);
    const { api } = await certificatesApi(ctx.env, ctx.store);
    const c = must(
      await api.POST('/api/v1/certificates/{serial}/revoke', {
        params: { path: { serial } },
        body: { reason: reason ?? 'unspecified' },
      }),
    );
    emit(
      ctx,
      c,
      ['SERIAL', 'PURPOSE', 'STATUS', 'REASON', 'REVOKED AT', 'SUBJECT'],
      [[c.serial, c.purpose, c.status, c.revocation_reason, shortTime(c.revoked_at), c.subject]],
    );
    if (!ctx.json && c.warning) ctx.note(`warning: ${c.warning}`);
    return EXIT.ok;
  },
};
