import { createHash, X509Certificate } from 'node:crypto';
import { readCertsOnlyPkcs7 } from '@platform/pki';
import type { OutboundHttp } from '@platform/egress';
import type { ScepProfileSettings } from './issuer-profile.model';
import { logTransport, StepLog, type ConnectionTestResult } from './connection-steps';

/**
 * The SCEP connection test: GetCACaps (reachability, HTTP status, capabilities text), then
 * GetCACert (a DER certificate or a certs-only PKCS#7) and the pinned SHA-256 fingerprint
 * among its CA certificates. SCEP authorises with the challenge password inside PKCSReq only,
 * so no probe can check it without enrolling: the `auth` step says so.
 */
export async function probeScep(
  settings: ScepProfileSettings,
  http: OutboundHttp,
): Promise<ConnectionTestResult> {
  const log = new StepLog();
  const https = settings.url.startsWith('https:');
  log.pass('config', `SCEP at ${new URL(settings.url).host}`);
  const caps = await http.request(`${settings.url}?operation=GetCACaps`);
  if (!logTransport(log, caps, https, 'GetCACaps')) return log.result();
  if (!caps.ok) return log.result();
  if (caps.status !== 200) return log.fail('http_status', `GetCACaps answered HTTP ${caps.status}`);
  const capabilities = Buffer.from(caps.body)
    .toString('utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /^[A-Za-z0-9-]{1,40}$/.test(line));
  log.pass('http_status', `GetCACaps: ${capabilities.join(', ').slice(0, 200) || 'none listed'}`);
  const cert = await http.request(`${settings.url}?operation=GetCACert`);
  if (!cert.ok) return log.fail('connect', `GetCACert: ${cert.reason}: ${cert.message}`);
  if (cert.status !== 200) return log.fail('http_status', `GetCACert answered HTTP ${cert.status}`);
  let certificates: Buffer[];
  try {
    const body = Buffer.from(cert.body);
    const type = cert.headers.find(([name]) => name === 'content-type')?.[1] ?? '';
    certificates = type.includes('ra-cert') ? readCertsOnlyPkcs7(body) : [body];
    for (const der of certificates) new X509Certificate(der);
  } catch {
    return log.fail('parse', 'GetCACert: neither a DER certificate nor a certs-only PKCS#7');
  }
  log.pass('parse', `GetCACert: ${certificates.length} certificate(s)`);
  const pinned = certificates.some(
    (der) => createHash('sha256').update(der).digest('hex') === settings.ca_fingerprint,
  );
  if (!pinned) {
    return log.fail('pin', 'no certificate of GetCACert matches the pinned SHA-256 fingerprint');
  }
  log.pass('pin', 'the CA certificate matches the pinned fingerprint');
  log.pass('auth', 'not checked: SCEP verifies the challenge password only when enrolling');
  return log.result();
}
