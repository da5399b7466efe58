/**
 * A Windows security identifier in its string form (`S-1-5-21-...`, MS-DTYP 2.4.2.1), from
 * the binary `objectSid` attribute (MS-DTYP 2.4.2.2: revision 1, sub-authority count,
 * 48-bit big-endian identifier authority, then little-endian 32-bit sub-authorities) or from
 * a directory that already stores the string. Undefined for anything else.
 */
export function sidText(value: Buffer | string): string | undefined {
  if (typeof value === 'string') return SID_TEXT.test(value) ? value.toUpperCase() : undefined;
  if (value.length < 8) return undefined;
  const revision = value[0];
  const count = value[1];
  if (revision !== 1 || count > 15 || value.length !== 8 + 4 * count) return undefined;
  const authority = value.readUIntBE(2, 6);
  const parts = [`S-1-${authorityText(authority)}`];
  for (let i = 0; i < count; i += 1) parts.push(String(value.readUInt32LE(8 + 4 * i)));
  return parts.join('-');
}

/** The binary form of a string SID (tests and the directory stand-in). */
export function sidBytes(text: string): Buffer {
  if (!SID_TEXT.test(text)) throw new Error(`not a SID: ${text}`);
  const [, , authority, ...subs] = text.split('-');
  const out = Buffer.alloc(8 + 4 * subs.length);
  out[0] = 1;
  out[1] = subs.length;
  out.writeUIntBE(Number(authority), 2, 6);
  subs.forEach((sub, i) => out.writeUInt32LE(Number(sub), 8 + 4 * i));
  return out;
}

/** MS-DTYP 2.4.2.1: below 2^32 in decimal, larger authorities as `0x` and 12 hex digits. */
function authorityText(authority: number): string {
  return authority < 2 ** 32
    ? String(authority)
    : `0x${authority.toString(16).toUpperCase().padStart(12, '0')}`;
}

const SID_TEXT = /^S-1-(\d{1,10}|0x[0-9A-F]{12})(-\d{1,10}){1,15}$/i;
