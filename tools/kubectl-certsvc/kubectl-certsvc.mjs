#!/usr/bin/env node
// kubectl exec credential plugin of the certificate service (client.authentication.k8s.io
// v1beta1 and v1). No dependencies beyond node:*. See docs/certificate-service/kubernetes.md.
//
// Options (or environment): --broker URL (CERTSVC_BROKER_URL), --cluster NAME
// (CERTSVC_CLUSTER), --cert FILE and --key FILE of the user's user_mtls certificate
// (CERTSVC_CLIENT_CERT, CERTSVC_CLIENT_KEY), --broker-ca FILE to trust the broker's server
// certificate (CERTSVC_BROKER_CA; default: the system roots), --cache-dir DIR (default
// $XDG_CACHE_HOME/certsvc or ~/.kube/cache/certsvc).
//
// Prompt-on-issuance: when the broker's answer carries `prompt` (`once_per_window`,
// `every_time`) the person is asked on the controlling terminal (/dev/tty) before the
// credential is used; a "no" discards it (its private key never left this process). Without a
// terminal the broker is told so (`prompt_available: false`): the raised step refuses there.
// Under `every_time` nothing is cached. The TLS session of the last broker call is kept next to
// the cache (0600) so the next run resumes it instead of a full handshake.
import { createHash, generateKeyPairSync } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { request } from 'node:https';
import { homedir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

const RENEW_BEFORE_MS = 60_000;
const API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

function fail(message) {
  process.stderr.write(`kubectl-certsvc: ${message}\n`);
  process.exit(1);
}

function options(argv) {
  const names = {
    broker: 'CERTSVC_BROKER_URL',
    cluster: 'CERTSVC_CLUSTER',
    cert: 'CERTSVC_CLIENT_CERT',
    key: 'CERTSVC_CLIENT_KEY',
    'broker-ca': 'CERTSVC_BROKER_CA',
    'cache-dir': 'CERTSVC_CACHE_DIR',
  };
  const out = {};
  for (const [name, env] of Object.entries(names)) out[name] = process.env[env];
  for (let i = 0; i < argv.length; i += 1) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!match || !(match[1] in names)) fail(`unknown argument ${argv[i]}`);
    out[match[1]] = match[2] ?? argv[(i += 1)];
  }
  for (const required of ['broker', 'cluster', 'cert', 'key']) {
    if (!out[required]) fail(`--${required} (or ${names[required]}) is required`);
  }
  out['cache-dir'] ??= process.env.XDG_CACHE_HOME
    ? join(process.env.XDG_CACHE_HOME, 'certsvc')
    : join(homedir(), '.kube', 'cache', 'certsvc');
  return out;
}

function execInfoApiVersion() {
  const text = process.env.KUBERNETES_EXEC_INFO;
  if (!text) return 'client.authentication.k8s.io/v1beta1';
  let info;
  try {
    info = JSON.parse(text);
  } catch {
    fail('KUBERNETES_EXEC_INFO is not JSON');
  }
  if (!API_VERSIONS.includes(info.apiVersion)) fail(`unsupported apiVersion ${info.apiVersion}`);
  return info.apiVersion;
}

/** Whether the person can be asked here: a controlling terminal (never on macOS, spec). */
function promptAvailable() {
  if (process.platform === 'darwin' || process.platform === 'win32') return false;
  try {
    closeSync(openSync('/dev/tty', 'r+'));
    return true;
  } catch {
    return false;
  }
}

/** Asks a yes/no question on the controlling terminal; true only for y/yes. */
function confirm(question) {
  let fd;
  try {
    fd = openSync('/dev/tty', 'r+');
  } catch {
    fail('cluster access must be confirmed, and there is no terminal to ask on (refused)');
  }
  try {
    writeSync(fd, `${question} [y/N] `);
    const buffer = Buffer.alloc(256);
    let text = '';
    while (!text.includes('\n')) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      text += buffer.toString('utf8', 0, n);
    }
    return /^\s*y(es)?\s*$/i.test(text.split('\n')[0]);
  } finally {
    closeSync(fd);
  }
}

function print(apiVersion, credential) {
  process.stdout.write(
    `${JSON.stringify({
      apiVersion,
      kind: 'ExecCredential',
      status: {
        clientCertificateData: credential.certificatePem,
        clientKeyData: credential.keyPem,
        expirationTimestamp: credential.expiresAt,
      },
    })}\n`,
  );
}

function cachePath(opts, certPem) {
  const id = createHash('sha256')
    .update(`${opts.broker}\n${opts.cluster}\n${certPem}`)
    .digest('hex')
    .slice(0, 32);
  return join(opts['cache-dir'], `${id}.json`);
}

function readCache(path) {
  try {
    const cached = JSON.parse(readFileSync(path, 'utf8'));
    if (cached.prompt === 'every_time') return undefined;
    if (Date.parse(cached.expiresAt) - Date.now() > RENEW_BEFORE_MS) return cached;
  } catch {
    // no usable cache entry
  }
  return undefined;
}

function writeCache(path, dir, credential) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(credential), { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

function readSession(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

function writeSession(path, dir, session) {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, session, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, path);
  } catch {
    // resumption is an optimisation only
  }
}

function callBroker(opts, certPem, keyPem, body, sessionPath) {
  const url = new URL('/api/v1/k8s/credential', opts.broker);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        cert: certPem,
        key: keyPem,
        ca: opts['broker-ca'] ? readFileSync(opts['broker-ca']) : undefined,
        // The last TLS session with this broker and certificate: a resumed handshake.
        session: readSession(sessionPath),
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
        timeout: 30_000,
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          let answer = {};
          try {
            answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            // not JSON: reported with the status below
          }
          resolve({ status: res.statusCode, answer });
        });
      },
    );
    req.on('socket', (socket) =>
      socket.on('session', (session) => writeSession(sessionPath, opts['cache-dir'], session)),
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(text);
  });
}

async function main() {
  const apiVersion = execInfoApiVersion();
  const opts = options(process.argv.slice(2));
  let certPem;
  let userKeyPem;
  try {
    certPem = readFileSync(opts.cert, 'utf8');
    userKeyPem = readFileSync(opts.key, 'utf8');
  } catch (error) {
    fail(`cannot read the user_mtls certificate or key: ${error.message}`);
  }
  const path = cachePath(opts, certPem);
  const cached = readCache(path);
  if (cached) return print(apiVersion, cached);

  // The key pair of the credential is made here; only its public half goes to the broker.
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const canAsk = promptAvailable();
  let result;
  try {
    result = await callBroker(
      opts,
      certPem,
      userKeyPem,
      {
        cluster: opts.cluster,
        public_key: pair.publicKey.export({ format: 'pem', type: 'spki' }),
        prompt_available: canAsk,
      },
      path.replace(/\.json$/, '.tls-session'),
    );
  } catch (error) {
    fail(`cannot reach the credential broker at ${opts.broker}: ${error.message}`);
  }
  const { status, answer } = result;
  if (status !== 201) {
    fail(
      `the credential broker refused (${status} ${answer.code ?? 'error'}): ${answer.message ?? 'no details'}`,
    );
  }
  const prompt = answer.prompt ?? 'none';
  if (prompt !== 'none') {
    if (canAsk) {
      const groups = (answer.groups ?? []).join(', ') || 'no groups';
      if (!confirm(`kubectl-certsvc: use cluster ${opts.cluster} as ${answer.user} (${groups})?`)) {
        fail(`access to cluster ${opts.cluster} was not confirmed (refused)`);
      }
    } else {
      // Only the raised step refuses without a session to ask (the broker did); here it issued.
      process.stderr.write(
        `kubectl-certsvc: cluster access asks for confirmation (${prompt}), but no terminal can ask; issued without it\n`,
      );
    }
  }
  const credential = {
    certificatePem: answer.client_certificate_pem,
    keyPem: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }),
    expiresAt: answer.expires_at,
    prompt,
  };
  // Asked every time: never reused from the cache.
  if (prompt !== 'every_time') writeCache(path, opts['cache-dir'], credential);
  print(apiVersion, credential);
}

main().catch((error) => fail(error?.message ?? String(error)));
