import { enumerated, octetString } from '../der/der-primitives';
import { oid } from '../der/der-oid';
import { sequence } from '../der/der-tlv';
import { Oids } from '../der/oids';

/** CRLReason of RFC 5280 5.3.1 (removeFromCRL is for delta CRLs and not offered). */
export const REVOCATION_REASON_CODES = {
  unspecified: 0,
  keyCompromise: 1,
  cACompromise: 2,
  affiliationChanged: 3,
  superseded: 4,
  cessationOfOperation: 5,
  certificateHold: 6,
  privilegeWithdrawn: 9,
  aACompromise: 10,
} as const;

export type RevocationReason = keyof typeof REVOCATION_REASON_CODES;

export function isRevocationReason(value: string): value is RevocationReason {
  return Object.prototype.hasOwnProperty.call(REVOCATION_REASON_CODES, value);
}

const ENTRY_EXTENSIONS = new Map<RevocationReason, Buffer>();
for (const [reason, code] of Object.entries(REVOCATION_REASON_CODES) as [
  RevocationReason,
  number,
][]) {
  const ext = sequence(oid(Oids.cRLReason), octetString(enumerated(code)));
  ENTRY_EXTENSIONS.set(reason, sequence(ext));
}

/**
 * crlEntryExtensions with the reasonCode, or undefined for `unspecified` (RFC 5280: the
 * reason code SHOULD be absent instead of using unspecified).
 */
export function reasonExtensions(reason: RevocationReason | undefined): Buffer | undefined {
  return reason === undefined || reason === 'unspecified'
    ? undefined
    : ENTRY_EXTENSIONS.get(reason);
}
