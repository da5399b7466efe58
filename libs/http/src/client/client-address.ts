import { BlockList, isIP } from 'node:net';

/**
 * Which peers may speak for the client through `X-Forwarded-For`. Without trusted proxies the
 * header is ignored: a forged header must not dodge per-address limits.
 */
export class TrustedProxies {
  private readonly list = new BlockList();
  private readonly empty: boolean;

  constructor(entries: string[]) {
    for (const entry of entries) {
      const [addr, bits] = entry.split('/');
      const family = isIP(normalizeIpAddress(addr));
      if (family === 0) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an address or CIDR`);
      const type = family === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.list.addAddress(normalizeIpAddress(addr), type);
      else this.list.addSubnet(normalizeIpAddress(addr), Number(bits), type);
    }
    this.empty = entries.length === 0;
  }

  isTrusted(address: string): boolean {
    if (this.empty) return false;
    const a = normalizeIpAddress(address);
    const family = isIP(a);
    return family !== 0 && this.list.check(a, family === 6 ? 'ipv6' : 'ipv4');
  }

  /**
   * The client address: walk `X-Forwarded-For` from the right while hops are trusted
   * proxies; the first untrusted hop is the client.
   */
  clientAddress(peer: string, forwardedFor: string | string[] | undefined): string {
    const direct = normalizeIpAddress(peer);
    if (!this.isTrusted(direct) || !forwardedFor) return direct;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
      .split(',')
      .map((h) => normalizeIpAddress(h.trim()))
      .filter((h) => isIP(h) !== 0);
    let client = direct;
    for (let i = hops.length - 1; i >= 0; i--) {
      client = hops[i];
      if (!this.isTrusted(client)) break;
    }
    return client;
  }
}

/** Strips IPv4-mapped IPv6 (`::ffff:1.2.3.4`) to the IPv4 form. */
export function normalizeIpAddress(address: string): string {
  const a = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return mapped ? mapped[1] : a;
}
