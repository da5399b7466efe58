/**
 * IP address text in the strict notations a perimeter accepts: IPv4 as a dotted quad of
 * decimal octets without leading zeros (`010.0.0.1` is refused: octal or decimal is
 * ambiguous), IPv6 as RFC 4291 text (`::` once, an embedded dotted IPv4 tail, no zone id).
 * IPv4 addresses are numbers (0..2^32-1), IPv6 addresses bigints, so intervals compare with
 * `<` and the perimeter can binary-search them.
 */
export type IpValue = { family: 4; value: number } | { family: 6; value: bigint };

const CODE_0 = 48;
const CODE_9 = 57;

/** A dotted quad (`192.0.2.1`) as a number, or undefined. */
export function parseIpv4(text: string): number | undefined {
  const length = text.length;
  if (length < 7 || length > 15) return undefined;
  let value = 0;
  let octet = 0;
  let digits = 0;
  let parts = 0;
  for (let i = 0; i <= length; i += 1) {
    const code = i === length ? 46 : text.charCodeAt(i);
    if (code === 46) {
      if (digits === 0 || parts === 4) return undefined;
      value = value * 256 + octet;
      parts += 1;
      octet = 0;
      digits = 0;
      continue;
    }
    if (code < CODE_0 || code > CODE_9) return undefined;
    if (digits > 0 && octet === 0) return undefined; // leading zero
    octet = octet * 10 + (code - CODE_0);
    digits += 1;
    if (octet > 255) return undefined;
  }
  return parts === 4 ? value : undefined;
}

function hexDigit(code: number): number {
  if (code >= CODE_0 && code <= CODE_9) return code - CODE_0;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/**
 * RFC 4291 IPv6 text (no brackets, no zone id) as a bigint, or undefined. One pass over the
 * characters into eight 16-bit groups (the filter parses 100 000 targets per request).
 */
export function parseIpv6(text: string): bigint | undefined {
  const length = text.length;
  if (length < 2 || length > 45) return undefined;
  const groups = [0, 0, 0, 0, 0, 0, 0, 0];
  let count = 0;
  let gap = -1;
  let i = 0;
  if (text.charCodeAt(0) === 58) {
    if (text.charCodeAt(1) !== 58) return undefined;
    gap = 0;
    i = 2;
    if (i === length) return 0n;
  }
  while (i < length) {
    // One group, or the IPv4 tail.
    let group = 0;
    let digits = 0;
    const start = i;
    while (i < length) {
      const digit = hexDigit(text.charCodeAt(i));
      if (digit < 0) break;
      group = group * 16 + digit;
      digits += 1;
      i += 1;
    }
    if (i < length && text.charCodeAt(i) === 46) {
      if (count > 6) return undefined;
      const v4 = parseIpv4(text.slice(start));
      if (v4 === undefined) return undefined;
      groups[count++] = Math.floor(v4 / 65536);
      groups[count++] = v4 % 65536;
      i = length;
      break;
    }
    if (digits === 0 || digits > 4 || count === 8) return undefined;
    groups[count++] = group;
    if (i === length) break;
    if (text.charCodeAt(i) !== 58) return undefined;
    i += 1;
    if (i < length && text.charCodeAt(i) === 58) {
      if (gap >= 0) return undefined;
      gap = count;
      i += 1;
      if (i === length) break;
    } else if (i === length) {
      return undefined; // a trailing single colon
    }
  }
  if (gap < 0) {
    if (count !== 8) return undefined;
  } else {
    if (count > 7) return undefined;
    const tail = count - gap;
    for (let k = 0; k < tail; k += 1) groups[7 - k] = groups[count - 1 - k];
    for (let k = gap; k < 8 - tail; k += 1) groups[k] = 0;
  }
  return (
    (BigInt(groups[0] * 65536 + groups[1]) << 96n) |
    (BigInt(groups[2] * 65536 + groups[3]) << 64n) |
    (BigInt(groups[4] * 65536 + groups[5]) << 32n) |
    BigInt(groups[6] * 65536 + groups[7])
  );
}

/** Either family. */
export function parseIp(text: string): IpValue | undefined {
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIpv4(text);
  return value === undefined ? undefined : { family: 4, value };
}

export function formatIpv4(value: number): string {
  return `${Math.floor(value / 16777216)}.${Math.floor(value / 65536) % 256}.${
    Math.floor(value / 256) % 256
  }.${value % 256}`;
}

/** The first address of `::ffff:0:0/96`: IPv4-mapped IPv6 addresses. */
export const IPV4_MAPPED_START = 0xffff00000000n;
export const IPV4_MAPPED_END = 0xffffffffffffn;

/** RFC 5952 text: lower case, the longest run of two or more zero groups as `::`. */
export function formatIpv6(value: bigint): string {
  if (value >= IPV4_MAPPED_START && value <= IPV4_MAPPED_END) {
    return `::ffff:${formatIpv4(Number(value & 0xffffffffn))}`;
  }
  const groups: number[] = [];
  for (let i = 7; i >= 0; i -= 1) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  const head = hex.slice(0, bestStart).join(':');
  const tail = hex.slice(bestStart + bestLength).join(':');
  return `${head}::${tail}`;
}

export function formatIp(ip: IpValue): string {
  return ip.family === 4 ? formatIpv4(ip.value) : formatIpv6(ip.value);
}
