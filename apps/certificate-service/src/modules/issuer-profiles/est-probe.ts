import {
  decodeBase64Body,
  EstClient,
  headerOf,
  PkiError,
  readCertsOnlyPkcs7,
  type EstHttp,
  type EstIssuerConfig,
} from '@platform/pki';
import { logTransport, StepLog, type ConnectionTestResult } from './connection-steps';

/**
 * The EST connection test: `GET /cacerts` over verified TLS (DNS, connect, TLS, HTTP status,
 * a certs-only PKCS#7), then an authorization probe — `POST /simpleenroll` with the
 * profile's credentials and an empty body, which no server can turn into a certificate:
 * 401/403 means the credentials are refused; any other answer (400 for the empty CSR) means
 * they passed.
 */
export async function probeEst(
  config: EstIssuerConfig,
  http: EstHttp,
): Promise<ConnectionTestResult> {
  const log = new StepLog();
  let client: EstClient;
  try {
    client = new EstClient(config, http);
    log.pass('config', `EST ${config.auth.mode} at ${new URL(config.url).host}`);
  } catch (error) {
    return log.fail('config', error instanceof Error ? error.message : 'invalid settings');
  }
  let answer;
  try {
    answer = await client.send('cacerts', undefined);
  } catch (error) {
    return log.fail('config', error instanceof PkiError ? error.message : 'invalid settings');
  }
  if (!logTransport(log, answer, true, 'GET /cacerts')) return log.result();
  if (!answer.ok) return log.result();
  if (answer.status === 401 || answer.status === 403) {
    log.pass('http_status', `GET /cacerts answered HTTP ${answer.status}`);
    return log.fail(
      'auth',
      `GET /cacerts: the server refused the credentials (HTTP ${answer.status})`,
    );
  }
  if (answer.status !== 200) {
    return log.fail('http_status', `GET /cacerts answered HTTP ${answer.status}`);
  }
  log.pass('http_status', 'GET /cacerts answered HTTP 200');
  try {
    const type = headerOf(answer.headers, 'content-type') ?? '';
    if (!type.toLowerCase().startsWith('application/pkcs7-mime')) {
      throw new PkiError('est_answer_invalid', `content-type ${type.slice(0, 64) || 'missing'}`);
    }
    const certificates = readCertsOnlyPkcs7(decodeBase64Body(answer.body));
    log.pass('parse', `GET /cacerts: ${certificates.length} CA certificate(s)`);
  } catch (error) {
    return log.fail(
      'parse',
      `GET /cacerts: ${error instanceof Error ? error.message : 'unreadable'}`,
    );
  }
  const probe = await client.send('simpleenroll', Buffer.alloc(0));
  if (!probe.ok) return log.fail('auth', `POST /simpleenroll: ${probe.reason}: ${probe.message}`);
  if (probe.status === 401 || probe.status === 403) {
    return log.fail(
      'auth',
      `POST /simpleenroll: the server refused the credentials (HTTP ${probe.status})`,
    );
  }
  log.pass(
    'auth',
    `POST /simpleenroll: credentials accepted (HTTP ${probe.status} to an empty enrollment probe)`,
  );
  return log.result();
}
