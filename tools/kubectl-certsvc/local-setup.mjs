#!/usr/bin/env node
// Sets up `kubectl` against a running certificate service with its credential broker, the way
// `npm run up` does it (docs/certificate-service/kubernetes.md, "Try kubectl in five minutes"):
//
//   1. signs in as the local admin (POST /api/v1/auth/local/login);
//   2. registers cluster --cluster (POST /api/v1/admin/k8s-clusters; an existing one gets the
//      current --server and --server-ca), groups: role cert-admin -> --group; writes its
//      client CA (client_ca_pem) to <dir>/cluster-client-ca.pem;
//   3. makes sure <dir>/user.crt + user.key hold a working user_mtls certificate of the admin:
//      asks the broker for a credential with it (POST /api/v1/k8s/credential over mutual TLS);
//      when it is missing or refused (unknown, expired, revoked), enrolls one like an agent
//      (POST /enroll for a local device, PUT /devices/{serial}/purposes, POST /enroll/user,
//      POST /requests/approve, GET /requests/{id}/certificate) and asks again;
//   4. writes <dir>/kubeconfig (0600): cluster --server, user with the exec plugin.
//
// Needs `openssl` (the CSRs). No dependencies beyond node:*. Prints what it did on stdout.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';

const PLUGIN = resolve(
  import.meta.dirname ?? new URL('.', import.meta.url).pathname,
  'kubectl-certsvc.mjs',
);
// The raised prompt step refuses issuance without a terminal, after the identity was accepted.
const PROMPT_UNAVAILABLE = 'k8s_prompt_unavailable';
const { values: opt } = parseArgs({
  options: {
    api: { type: 'string', default: 'http://127.0.0.1:8080' },
    email: { type: 'string', default: process.env.CERTSVC_ADMIN_EMAIL },
    password: { type: 'string', default: process.env.CERTSVC_ADMIN_PASSWORD },
    broker: { type: 'string', default: 'https://localhost:8443' },
    'broker-ca': { type: 'string' },
    cluster: { type: 'string', default: 'local' },
    server: { type: 'string', default: 'https://127.0.0.1:6443' },
    'server-ca': { type: 'string' },
    group: { type: 'string', default: 'certsvc:admins' },
    dir: { type: 'string' },
  },
});
for (const name of ['email', 'password', 'broker-ca', 'server-ca', 'dir']) {
  if (!opt[name]) fail(`--${name} is required`);
}
const dir = resolve(opt.dir);
const file = (name) => join(dir, name);

function fail(message) {
  process.stderr.write(`local-setup: ${message}\n`);
  process.exit(1);
}
const say = (message) => process.stdout.write(`[kubectl] ${message}\n`);

async function api(method, path, { token, body, headers = {} } = {}) {
  const res = await fetch(new URL(path, opt.api), {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = { raw: text };
  }
  return { status: res.status, body: json };
}

async function must(expected, method, path, options) {
  const res = await api(method, path, options);
  if (res.status !== expected) {
    fail(`${method} ${path}: ${res.status} ${res.body.code ?? ''} ${res.body.message ?? ''}`);
  }
  return res.body;
}

function csr(commonName) {
  const tmp = mkdtempSync(join(dir, '.csr-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'].concat(
        ['-keyout', join(tmp, 'k.pem'), '-subj', `/CN=${commonName}`, '-out', join(tmp, 'c.pem')],
      ),
      { stdio: 'pipe' },
    );
    return {
      csrPem: readFileSync(join(tmp, 'c.pem'), 'utf8'),
      keyPem: readFileSync(join(tmp, 'k.pem'), 'utf8'),
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function registerCluster(token) {
  const caBundle = readFileSync(opt['server-ca'], 'utf8');
  const { items } = await must(200, 'GET', '/api/v1/admin/k8s-clusters', { token });
  const found = items.find((c) => c.name === opt.cluster);
  const cluster = found
    ? await must(200, 'PUT', `/api/v1/admin/k8s-clusters/${found.id}`, {
        token,
        body: { server_url: opt.server, ca_bundle: caBundle, enabled: true },
      })
    : await must(201, 'POST', '/api/v1/admin/k8s-clusters', {
        token,
        body: {
          name: opt.cluster,
          server_url: opt.server,
          ca_bundle: caBundle,
          groups: [{ source: 'role', value: 'cert-admin', group: opt.group }],
        },
      });
  writeFileSync(file('cluster-client-ca.pem'), cluster.client_ca_pem);
  say(`cluster ${opt.cluster} ${found ? 'updated' : 'registered'} (server ${opt.server})`);
}

/** One credential call to the broker with the identity in user.crt/user.key. */
function askBroker() {
  const publicKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .publicKey.export({ format: 'pem', type: 'spki' })
    .toString();
  const text = JSON.stringify({
    cluster: opt.cluster,
    public_key: publicKey,
    prompt_available: false,
  });
  const url = new URL('/api/v1/k8s/credential', opt.broker);
  return new Promise((done, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ca: readFileSync(opt['broker-ca']),
        cert: readFileSync(file('user.crt')),
        key: readFileSync(file('user.key')),
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
        timeout: 30_000,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          let body;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            body = {};
          }
          done({ status: res.statusCode, body });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(text);
  });
}

/** A local device (enrolled once, kept in device.json) that may enroll user_mtls. */
async function localDevice(token) {
  if (existsSync(file('device.json'))) return JSON.parse(readFileSync(file('device.json'), 'utf8'));
  const serial = `LOCAL-KUBECTL-${randomBytes(4).toString('hex').toUpperCase()}`;
  const { nonce } = await must(201, 'POST', '/api/v1/enroll/nonce');
  const enrolled = await must(201, 'POST', '/api/v1/enroll', {
    body: { csr: csr(serial).csrPem, serial, nonce, platform: 'linux', hostname: 'local-kubectl' },
  });
  await must(200, 'PUT', `/api/v1/devices/${serial}/purposes`, {
    token,
    body: { purposes: ['user_mtls'] },
  });
  const device = { serial, enrollment_token: enrolled.enrollment_token };
  writeFileSync(file('device.json'), JSON.stringify(device, null, 2) + '\n', { mode: 0o600 });
  say(`device ${serial} enrolled (its own request stays pending: only its user_mtls is used)`);
  return device;
}

async function enrollUser(token) {
  let device = await localDevice(token);
  const pair = csr(opt.email);
  const body = () => ({
    serial: device.serial,
    enrollment_token: device.enrollment_token,
    csr: pair.csrPem,
    purpose: 'user_mtls',
    user: opt.email,
  });
  let filed = await api('POST', '/api/v1/enroll/user', { body: body() });
  if (filed.status === 401) {
    // device.json from another database (the stack was reset): a new local device.
    rmSync(file('device.json'), { force: true });
    device = await localDevice(token);
    filed = await api('POST', '/api/v1/enroll/user', { body: body() });
  }
  if (filed.status !== 201)
    fail(`POST /api/v1/enroll/user: ${filed.status} ${filed.body.code ?? ''}`);
  const { request_id: requestId, agent_secret: secret } = filed.body;
  const { results } = await must(200, 'POST', '/api/v1/requests/approve', {
    token,
    body: { request_ids: [requestId] },
  });
  if (results?.[0]?.status !== 'issued') fail(`approval did not issue: ${JSON.stringify(results)}`);
  const cert = await must(200, 'GET', `/api/v1/requests/${requestId}/certificate`, {
    headers: { 'x-agent-secret': secret },
  });
  writeFileSync(file('user.key'), pair.keyPem, { mode: 0o600 });
  writeFileSync(file('user.crt'), cert.certificate_pem);
  say(
    `user_mtls certificate of ${opt.email} issued (serial ${cert.serial}, until ${cert.not_after})`,
  );
}

async function identity(token) {
  const haveFiles = existsSync(file('user.crt')) && existsSync(file('user.key'));
  if (haveFiles) {
    const expires = Date.parse(new X509Certificate(readFileSync(file('user.crt'))).validTo);
    const answer = expires > Date.now() + 3600_000 ? await askBroker() : { status: 0, body: {} };
    if (answer.status === 201 || answer.body.code === PROMPT_UNAVAILABLE) return answer;
    say(
      `the kept user_mtls certificate is not usable (${answer.status || 'expiring'} ${answer.body.code ?? ''}); enrolling a new one`,
    );
  }
  await enrollUser(token);
  return askBroker();
}

function kubeconfig() {
  // JSON strings are valid YAML double-quoted scalars.
  const q = (value) => JSON.stringify(value);
  const args = [
    PLUGIN,
    `--broker=${opt.broker}`,
    `--cluster=${opt.cluster}`,
    `--cert=${file('user.crt')}`,
    `--key=${file('user.key')}`,
    `--broker-ca=${resolve(opt['broker-ca'])}`,
    `--cache-dir=${file('cache')}`,
  ];
  const yaml = [
    '# Written by tools/kubectl-certsvc/local-setup.mjs (npm run up). kubectl runs the exec',
    "# plugin, which asks the certificate service's broker for a 10-minute client certificate",
    '# (cached until shortly before it expires) with the user_mtls certificate below.',
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `  - name: ${q(opt.cluster)}`,
    '    cluster:',
    `      server: ${q(opt.server)}`,
    `      certificate-authority: ${q(resolve(opt['server-ca']))}`,
    'users:',
    '  - name: "certsvc"',
    '    user:',
    '      exec:',
    '        apiVersion: "client.authentication.k8s.io/v1beta1"',
    `        command: ${q(process.execPath)}`,
    '        args:',
    ...args.map((a) => `          - ${q(a)}`),
    '        interactiveMode: "IfAvailable"',
    'contexts:',
    `  - name: ${q(opt.cluster)}`,
    `    context: { cluster: ${q(opt.cluster)}, user: "certsvc" }`,
    `current-context: ${q(opt.cluster)}`,
    '',
  ].join('\n');
  writeFileSync(file('kubeconfig'), yaml, { mode: 0o600 });
}

mkdirSync(dir, { recursive: true, mode: 0o700 });
const { access_token: token } = await must(200, 'POST', '/api/v1/auth/local/login', {
  body: { email: opt.email, password: opt.password },
});
await registerCluster(token);
const answer = await identity(token);
if (answer.body.code === PROMPT_UNAVAILABLE) {
  say('broker check: identity accepted; the raised prompt step issues from a terminal only');
} else if (answer.status !== 201) {
  fail(
    `the broker refused a credential: ${answer.status} ${answer.body.code} ${answer.body.message}`,
  );
} else {
  say(
    `broker check: issued a 10-minute credential for ${answer.body.user} (groups ${answer.body.groups.join(', ') || 'none'})`,
  );
}
kubeconfig();
say(`kubeconfig written: ${file('kubeconfig')}`);
