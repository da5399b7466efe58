import { promises as dns } from 'node:dns';

/** Resolves a DNS name to the addresses the guard will check (and then dial). */
export interface EgressResolver {
  /** Every address of the name (IPv4 and IPv6); an empty list or a rejection means no answer. */
  resolve(name: string): Promise<string[]>;
}

/**
 * Production resolver: the system's getaddrinfo (`dns.promises.lookup` with `all: true`),
 * the same answer a plain connect would use (hosts file, resolv.conf), but asked once by
 * the guard, checked, and never asked again for the connect.
 */
export const systemResolver: EgressResolver = {
  async resolve(name: string): Promise<string[]> {
    const answers = await dns.lookup(name, { all: true, verbatim: true });
    return answers.map((answer) => answer.address);
  },
};

/**
 * Resolver that queries the given DNS servers directly (A and AAAA), bypassing the hosts
 * file and search list. Used where the runner must ask a specific server; the tests point it
 * at a DNS responder on loopback.
 */
export function dnsServerResolver(
  servers: readonly string[],
  options: { timeoutMs?: number } = {},
): EgressResolver {
  return {
    async resolve(name: string): Promise<string[]> {
      const resolver = new dns.Resolver({ timeout: options.timeoutMs ?? 2000, tries: 1 });
      resolver.setServers([...servers]);
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
      const addresses = [
        ...(v4.status === 'fulfilled' ? v4.value : []),
        ...(v6.status === 'fulfilled' ? v6.value : []),
      ];
      if (addresses.length === 0 && v4.status === 'rejected') throw v4.reason;
      return addresses;
    },
  };
}
