import { isIP } from 'node:net';

function v4TailToHex(text: string): string {
  return text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a, b, c, d) =>
    [((Number(a) << 8) | Number(b)).toString(16), ((Number(c) << 8) | Number(d)).toString(16)].join(
      ':',
    ),
  );
}

/** Network-order bytes of an IPv4 or IPv6 address, or undefined when not an address. */
export function ipAddressBytes(text: string): Buffer | undefined {
  const family = isIP(text);
  if (family === 4) return Buffer.from(text.split('.').map(Number));
  if (family !== 6 || text.includes('%')) return undefined;
  const normalized = v4TailToHex(text);
  const groupsOf = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((group) => parseInt(group, 16));
  const [left, right] = normalized.split('::');
  let groups = groupsOf(left);
  if (right !== undefined) {
    const tail = groupsOf(right);
    groups = [...groups, ...new Array<number>(8 - groups.length - tail.length).fill(0), ...tail];
  }
  if (groups.length !== 8) return undefined;
  const out = Buffer.alloc(16);
  groups.forEach((group, i) => out.writeUInt16BE(group, i * 2));
  return out;
}
