/**
 * IP literals the way a connect would read them, independent of the URL parser: IPv4 in
 * every inet_aton spelling (`127.1`, `0x7f000001`, `2130706433`, `0177.0.0.1`, trailing
 * dot) and IPv6 with embedded IPv4 (`::ffff:127.0.0.1`). Zone ids are refused (a zone picks
 * an interface; no outgoing call needs one). Addresses are bytes, so range checks are exact.
 */
export interface IpAddress {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: Uint8Array;
  /** Canonical text: dotted quad, or RFC 5952 compressed lower-case IPv6. */
  text: string;
}

const IPV4_PART = /^(0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*)$/;

/** Parses an IPv4 literal in inet_aton/WHATWG form (1-4 parts, hex/octal/decimal parts). */
export function parseIpv4(input: string): IpAddress | undefined {
  let parts = input.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts = parts.slice(0, -1);
  if (parts.length === 0 || parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    if (!IPV4_PART.test(part)) return undefined;
    let value: number;
    if (/^0[xX]/.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (part.length > 1 && part.startsWith('0')) value = parseInt(part.slice(1), 8);
    else value = parseInt(part, 10);
    if (!Number.isSafeInteger(value)) return undefined;
    numbers.push(value);
  }
  const last = numbers[numbers.length - 1];
  const head = numbers.slice(0, -1);
  if (head.some((n) => n > 255)) return undefined;
  const lastBytes = 4 - head.length;
  if (last >= 256 ** lastBytes) return undefined;
  const bytes = new Uint8Array(4);
  head.forEach((n, i) => (bytes[i] = n));
  for (let i = 0; i < lastBytes; i += 1) {
    bytes[3 - i] = Math.floor(last / 256 ** i) % 256;
  }
  return ipv4FromBytes(bytes);
}

/** Parses an IPv6 literal (no brackets, no zone id), embedded dotted IPv4 tail allowed. */
export function parseIpv6(input: string): IpAddress | undefined {
  if (input.length === 0 || input.length > 45 || input.includes('%')) return undefined;
  const halves = input.split('::');
  if (halves.length > 2) return undefined;
  const toGroups = (half: string, allowV4Tail: boolean): number[] | undefined => {
    if (half === '') return [];
    const pieces = half.split(':');
    const groups: number[] = [];
    for (let i = 0; i < pieces.length; i += 1) {
      const piece = pieces[i];
      if (allowV4Tail && i === pieces.length - 1 && piece.includes('.')) {
        const octets = parseDottedQuad(piece);
        if (!octets) return undefined;
        groups.push(octets[0] * 256 + octets[1], octets[2] * 256 + octets[3]);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
        groups.push(parseInt(piece, 16));
      }
    }
    return groups;
  };
  let groups: number[];
  if (halves.length === 2) {
    const head = toGroups(halves[0], false);
    const tail = toGroups(halves[1], true);
    if (!head || !tail || head.length + tail.length > 7) return undefined;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    const all = toGroups(input, true);
    if (!all || all.length !== 8) return undefined;
    groups = all;
  }
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return ipv6FromBytes(bytes);
}

/** IPv4, IPv6, or a bracketed IPv6 (`[::1]`); undefined for anything else. */
export function parseIpAddress(input: string): IpAddress | undefined {
  if (input.startsWith('[') && input.endsWith(']')) return parseIpv6(input.slice(1, -1));
  if (input.includes(':')) return parseIpv6(input);
  return parseIpv4(input);
}

/** Strict dotted-decimal a.b.c.d (no leading zeros, each part 0-255). */
function parseDottedQuad(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9]\d{0,2})$/.test(p))) return undefined;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

export function ipv4FromBytes(bytes: Uint8Array): IpAddress {
  return { family: 4, bytes, text: Array.from(bytes).join('.') };
}

export function ipv6FromBytes(bytes: Uint8Array): IpAddress {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes[i] * 256 + bytes[i + 1]);
  // RFC 5952: compress the longest run (first if tied) of two or more zero groups.
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLength && j - i >= 2) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  const text =
    bestStart < 0
      ? hex.join(':')
      : `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
  return { family: 6, bytes, text };
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), if it is one. */
export function unmapIpv4(address: IpAddress): IpAddress | undefined {
  if (address.family !== 6) return undefined;
  const b = address.bytes;
  for (let i = 0; i < 10; i += 1) if (b[i] !== 0) return undefined;
  if (b[10] !== 0xff || b[11] !== 0xff) return undefined;
  return ipv4FromBytes(b.slice(12, 16));
}

/** An address range: network bytes and prefix length. */
export interface IpRange {
  family: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
  text: string;
}

/** Parses `a.b.c.d/n`, `x::/n` or a bare address (a /32 or /128); refuses host bits. */
export function parseCidr(input: string): IpRange | { error: string } {
  const [addressText, prefixText, ...rest] = input.trim().split('/');
  if (rest.length > 0) return { error: `"${input}" is not a CIDR range` };
  // Allowlist entries are written by operators in canonical forms; no inet_aton spellings.
  const quad = parseDottedQuad(addressText);
  const address = addressText.includes(':')
    ? parseIpv6(addressText)
    : quad && ipv4FromBytes(Uint8Array.from(quad));
  if (!address) return { error: `"${input}" is not an IP address or CIDR range` };
  const max = address.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) {
    return { error: `"${input}" has an invalid prefix length` };
  }
  if (prefix > max) return { error: `"${input}" has a prefix longer than ${max}` };
  const network = maskBytes(address.bytes, prefix);
  if (!network.every((b, i) => b === address.bytes[i])) {
    const fixed = address.family === 4 ? ipv4FromBytes(network) : ipv6FromBytes(network);
    return { error: `"${input}" has host bits set (did you mean ${fixed.text}/${prefix}?)` };
  }
  return { family: address.family, bytes: network, prefix, text: `${address.text}/${prefix}` };
}

/** Whether the address is inside the range (same family only). */
export function rangeContains(range: IpRange, address: IpAddress): boolean {
  if (range.family !== address.family) return false;
  const masked = maskBytes(address.bytes, range.prefix);
  return masked.every((b, i) => b === range.bytes[i]);
}

function maskBytes(bytes: Uint8Array, prefix: number): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) {
    const bits = Math.max(0, Math.min(8, prefix - i * 8));
    out[i] = bytes[i] & ((0xff << (8 - bits)) & 0xff);
  }
  return out;
}
