// A small real enricher: the network zone of the finding's IPv4 address from the `zones`
// setting (`[{ "cidr": "10.1.0.0/16", "zone": "office" }, ...]`), the CVE's year, and —
// with `check_cves` — whether the service knows the CVE (host call is-cve-known).
import { isCveKnown } from 'findsvc:plugin/host@0.1.0';

function ipv4(text) {
  const parts = String(text).split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = value * 256 + Number(part);
  }
  return value;
}

function zoneOf(ip, zones) {
  const address = ipv4(ip);
  if (address === undefined) return undefined;
  for (const { cidr, zone } of zones) {
    const [base, bits] = String(cidr).split('/');
    const start = ipv4(base);
    const size = 2 ** (32 - Number(bits));
    if (start !== undefined && address >= start && address < start + size) return zone;
  }
  return undefined;
}

export const findingEnricher = {
  enrich(ctx, finding) {
    const settings = JSON.parse(ctx.settingsJson);
    const tags = [{ key: 'enricher', value: 'zone-enricher/2.0.0' }];
    const zone = finding.ip ? zoneOf(finding.ip, settings.zones ?? []) : undefined;
    tags.push({ key: 'zone', value: zone ?? 'unknown' });
    if (finding.cve) {
      const match = /^CVE-(\d{4})-\d+$/i.exec(finding.cve);
      if (match) tags.push({ key: 'cve-year', value: match[1] });
      if (settings.check_cves) {
        // A failed host call throws its host-error; is-cve-known answers `unavailable` until
        // the service has a CVE catalogue behind it: the finding is tagged "unknown" then.
        let known = 'unknown';
        try {
          known = isCveKnown([finding.cve]).length > 0 ? 'yes' : 'no';
        } catch {
          known = 'unknown';
        }
        tags.push({ key: 'cve-known', value: known });
      }
    }
    return tags;
  },
};
