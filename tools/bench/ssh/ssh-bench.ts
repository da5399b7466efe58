/**
 * SSH benchmark (not part of `npm test`): SSH certificates issued through bulk approval, and
 * KRL generation for 100 000 revoked serials.
 *
 *   bash tools/stack/stack.sh up && eval "$(bash tools/stack/stack.sh env)"
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/ssh/ssh-bench.ts
 *
 * Part 1 boots the certificate-service API in this process on a fresh database of the stack's
 * PostgreSQL, enrolls N devices through `POST /api/v1/enroll`, gives them the `ssh` purpose and
 * an owner (one SQL UPDATE, setup), files one `POST /api/v1/enroll/ssh` per device (Ed25519
 * keys), then approves the SSH requests in batches through `POST /api/v1/requests/approve` and
 * prints SSH certificates/s for the approval phase (HTTP, checks, principals, serials, signing,
 * one multi-row INSERT, request updates, licence ledger, audit). In-run reference: raw Ed25519
 * signing with node:crypto of as many messages of a certificate body's size.
 *
 * Part 2 inserts KRL_N revoked, unexpired certificates into `ssh_certificates` (one INSERT ...
 * SELECT, setup) and times `SshKrl.rebuild()` — read every source, encode the KRL, store it
 * under the version lock — and the pure encoding (`encodeKrl`) of the same serials. In-run
 * reference: a plain write of the same bytes to a file (write + fsync). The KRL is checked with
 * `ssh-keygen -Q` (a revoked serial is REVOKED). Serials are spread as a real fleet's are: every
 * third to fifth certificate of a range revoked, plus a run of consecutive ones.
 *
 * Env: BENCH_N (default 3000), BENCH_BATCH (default 500), BENCH_KRL_N (default 100000),
 * BENCH_KEEP_DB=1 keeps the database.
 */
import 'reflect-metadata';
import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createCertificateApp } from '../../../apps/certificate-service/src/api/create-app';
import { loadCertsvcConfig } from '../../../apps/certificate-service/src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../../apps/certificate-service/src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../../apps/certificate-service/src/app/metrics/certsvc-metrics';
import { IssuanceTimings } from '../../../apps/certificate-service/src/modules/issuance/issuance-timings';
import { SshCaService } from '../../../apps/certificate-service/src/modules/ssh/ssh-ca.service';
import { SshKrl } from '../../../apps/certificate-service/src/modules/ssh/ssh-krl.service';
import { encodeKrl, formatSshCertificate, parseSshPublicKey, toPem } from '@platform/pki';
import { ecKeyPair, makeCsr } from '@platform/pki/testing';
import { pool, post } from '../support/http-client';
import { stackUrl, adminQuery } from '../support/stack-db';

const N = Number(process.env['BENCH_N'] ?? 3000);
const BATCH = Number(process.env['BENCH_BATCH'] ?? 500);
const KRL_N = Number(process.env['BENCH_KRL_N'] ?? 100_000);
const CONCURRENCY = 16;
const ADMIN = { email: 'bench@certsvc.local', password: 'bench-password-1234' };
const OWNERS = 50;

/** A new Ed25519 key as an authorized_keys line (client side, not measured). */
function ed25519Line(): string {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const field = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const blob = Buffer.concat([
    field(Buffer.from('ssh-ed25519')),
    field(Buffer.from(jwk.x ?? '', 'base64url')),
  ]);
  return `ssh-ed25519 ${blob.toString('base64')} bench`;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Raw Ed25519 signatures (node:crypto) of `count` distinct messages; median of 5 passes. */
function ed25519Reference(count: number, bytes: number): { ms: number; runs: number[] } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const messages = Array.from({ length: count }, () => randomBytes(bytes));
  for (let i = 0; i < Math.min(count, 200); i++) sign(null, messages[i], privateKey);
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const started = performance.now();
    for (const m of messages) sign(null, m, privateKey);
    runs.push(performance.now() - started);
  }
  return { ms: median(runs), runs };
}

/** KRL_N serials: every 3rd to 5th of a range, and a tail of consecutive ones (a mass revoke). */
function fleetSerials(count: number, above: bigint): bigint[] {
  const serials: bigint[] = [];
  const run = Math.floor(count / 10);
  let s = above + 1000n;
  while (serials.length < count - run) {
    s += BigInt(3 + (serials.length % 3));
    serials.push(s);
  }
  for (let i = 0; i < run; i++) serials.push(s + 1000n + BigInt(i));
  return serials;
}

/** write + fsync of `bytes` into a new file: the in-run reference of the KRL timing. */
function plainWrite(bytes: Buffer, dir: string): number {
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const started = performance.now();
    const fd = openSync(join(dir, `plain-${r}`), 'w');
    writeSync(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    runs.push(performance.now() - started);
  }
  return median(runs);
}

async function main(): Promise<void> {
  const dbName = `bench_ssh_${Date.now()}`;
  await adminQuery(`CREATE DATABASE ${dbName}`);
  const url = new URL(stackUrl());
  url.pathname = `/${dbName}`;
  const config = loadCertsvcConfig({
    CERTSVC_DATABASE_URL: url.toString(),
    CERTSVC_JWT_SECRET: 'bench-secret-for-the-ssh-benchmark-0000000000',
    CERTSVC_CA_KEY_ENC_KEY: '07'.repeat(32),
    CERTSVC_LOG_LEVEL: 'warn',
    CERTSVC_LOCAL_ADMIN_EMAIL: ADMIN.email,
    CERTSVC_LOCAL_ADMIN_PASSWORD: ADMIN.password,
    CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '10000000',
    CERTSVC_DEFAULT_MAX_DEVICES: String(N + 10),
    CERTSVC_HOST: '127.0.0.1',
  });
  const app = await createCertificateApp({
    config,
    logger: createCertsvcLogger(config),
    metrics: new CertsvcMetrics({ processMetrics: false }),
  });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const dir = mkdtempSync(join(tmpdir(), 'ssh-bench-'));
  try {
    console.log(
      `node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; N=${N}, batch=${BATCH}, KRL_N=${KRL_N}`,
    );

    // ---- Part 1: SSH certificates through bulk approval ----
    let t0 = Date.now();
    const devices: { serial: string; token: string }[] = [];
    await pool([...Array(N).keys()], CONCURRENCY, async (i) => {
      const serial = `SSHBENCH-${String(i).padStart(6, '0')}`;
      const nonce = await post<{ nonce: string }>(base, '/api/v1/enroll/nonce', {});
      const csr = makeCsr({ keyPair: ecKeyPair(), commonName: serial });
      const res = await post<{ enrollment_token: string }>(base, '/api/v1/enroll', {
        csr: toPem('CERTIFICATE REQUEST', csr),
        serial,
        nonce: nonce.body.nonce,
      });
      if (res.status !== 201) throw new Error(`enroll ${i}: ${res.status}`);
      devices.push({ serial, token: res.body.enrollment_token });
    });
    const dataSource = app.get(DataSource);
    await dataSource.query(
      `UPDATE devices SET assigned_purposes = '{wifi,ssh}',
         owner = 'bench-user-' || (abs(hashtext(serial)) % ${OWNERS}) || '@corp.example.com'
       WHERE serial LIKE 'SSHBENCH-%'`,
    );
    const requestIds: string[] = [];
    await pool(devices, CONCURRENCY, async (d) => {
      const res = await post<{ request_id: string }>(base, '/api/v1/enroll/ssh', {
        serial: d.serial,
        enrollment_token: d.token,
        public_key: ed25519Line(),
      });
      if (res.status !== 201) throw new Error(`enroll/ssh ${d.serial}: ${res.status}`);
      requestIds.push(res.body.request_id);
    });
    console.log(
      `setup: ${N} devices enrolled, ssh purpose + owner set, ${N} SSH requests filed in ${Date.now() - t0} ms (not measured)`,
    );

    const login = await post<{ access_token: string }>(base, '/api/v1/auth/local/login', ADMIN);
    const token = login.body.access_token;
    const timings = app.get(IssuanceTimings);
    timings.reset();
    let issued = 0;
    const started = performance.now();
    for (let i = 0; i < requestIds.length; i += BATCH) {
      const res = await post<{ results: { status: string; error?: string }[] }>(
        base,
        '/api/v1/requests/approve',
        { request_ids: requestIds.slice(i, i + BATCH) },
        token,
      );
      if (res.status !== 200) throw new Error(`approve: ${res.status} ${JSON.stringify(res.body)}`);
      issued += res.body.results.filter((r) => r.status === 'issued').length;
    }
    const approveMs = performance.now() - started;
    const rate = (issued / approveMs) * 1000;
    const [{ bytes }] = (await dataSource.query(
      `SELECT avg(length(certificate))::int AS bytes FROM ssh_certificates`,
    )) as { bytes: number }[];
    // A certificate's signed body is the blob minus the signature field (4+11+4+64+4 bytes).
    const bodyBytes = bytes - 87;
    const reference = ed25519Reference(issued, bodyBytes);
    const referenceRate = (issued / reference.ms) * 1000;
    console.log(
      `\nSSH approval: ${issued}/${N} certificates in ${approveMs.toFixed(0)} ms = ${Math.round(rate)} SSH certificates/s end to end (target >= 3000/s)`,
    );
    const phases = timings.snapshot();
    const pct = (ms: number) =>
      `${((ms / approveMs) * 100).toFixed(1).padStart(5)} %  (${ms.toFixed(0)} ms)`;
    console.log(
      `  SSH issuance    ${pct(phases.issueMs)}  (principals, serials, parse, Ed25519 sign, multi-row INSERT)`,
    );
    console.log(
      `  database, rest  ${pct(phases.databaseMs)}  (lock, claim, slots, request UPDATE, ledger, commit)`,
    );
    console.log(
      `  HTTP, checks, audit ${pct(Math.max(0, approveMs - phases.issueMs - phases.databaseMs))}`,
    );
    console.log(
      `reference: raw Ed25519 signing (node:crypto, this process) of ${issued} ${bodyBytes}-byte messages in ${reference.ms.toFixed(0)} ms ` +
        `(median of ${reference.runs.map((ms) => ms.toFixed(0)).join(' / ')}): ${Math.round(referenceRate)} signatures/s`,
    );
    console.log(
      `ratio: ${Math.round(rate)} certificates/s / ${Math.round(referenceRate)} signatures/s = ${(rate / referenceRate).toFixed(3)}`,
    );

    // ---- Part 2: KRL of KRL_N revoked serials ----
    t0 = Date.now();
    const serials = fleetSerials(KRL_N, BigInt(N));
    const [{ device_id: deviceId, request_id: requestId }] = (await dataSource.query(
      `SELECT device_id, request_id FROM ssh_certificates LIMIT 1`,
    )) as { device_id: string; request_id: string }[];
    await dataSource.query(
      `INSERT INTO ssh_certificates (serial, request_id, device_id, key_id, principals, owner,
         key_type, public_key_fingerprint, valid_after, valid_before, certificate, status,
         revoked_at, revocation_reason)
       SELECT s, $2, $3, 'certsvc:bench', '{bench}', NULL, 'ssh-ed25519', 'SHA256:bench',
              now(), now() + interval '1 day', '\\x00'::bytea, 'revoked', now(), 'bench'
       FROM unnest($1::bigint[]) AS s`,
      [serials.map(String), requestId, deviceId],
    );
    console.log(
      `\nsetup: ${KRL_N} revoked certificates inserted in ${Date.now() - t0} ms (not measured)`,
    );
    const krl = app.get(SshKrl);
    const rebuildRuns: number[] = [];
    let published = await krl.rebuild();
    for (let r = 0; r < 5; r++) {
      const s = performance.now();
      published = await krl.rebuild();
      rebuildRuns.push(performance.now() - s);
    }
    const ca = app.get(SshCaService).ca();
    const encodeRuns: number[] = [];
    for (let r = 0; r < 5; r++) {
      const s = performance.now();
      encodeKrl({
        version: 1n,
        generatedAt: new Date(),
        caPublicKeyBlob: ca.publicKeyBlob,
        revokedSerials: serials,
      });
      encodeRuns.push(performance.now() - s);
    }
    const writeMs = plainWrite(published.bytes, dir);
    const rebuildMs = median(rebuildRuns);
    console.log(
      `KRL of ${KRL_N} revoked serials (+ ${N} live certificates in the table): ${published.bytes.length} bytes, version ${published.version}`,
    );
    console.log(
      `  SshKrl.rebuild() (read sources, encode, store under the version lock): ${rebuildMs.toFixed(1)} ms (median of ${rebuildRuns.map((ms) => ms.toFixed(0)).join(' / ')}; target <= 1000 ms)`,
    );
    console.log(
      `  encodeKrl() alone: ${median(encodeRuns).toFixed(1)} ms (median of ${encodeRuns.map((ms) => ms.toFixed(0)).join(' / ')})`,
    );
    console.log(
      `reference: plain write + fsync of the same ${published.bytes.length} bytes: ${writeMs.toFixed(2)} ms; rebuild / write = ${(rebuildMs / writeMs).toFixed(0)}x`,
    );
    const krlFile = join(dir, 'bench.krl');
    const fd = openSync(krlFile, 'w');
    writeSync(fd, published.bytes);
    closeSync(fd);
    // A certificate of our CA with a revoked serial, and one with a serial never revoked.
    const probe = join(dir, 'probe');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', probe]);
    const publicKey = parseSshPublicKey(readFileSync(`${probe}.pub`, 'utf8'));
    const query = (serial: bigint) => {
      const cert = ca.issue({
        publicKey,
        serial,
        keyId: 'bench-probe',
        principals: ['bench'],
        validAfter: new Date(Date.now() - 60_000),
        validBefore: new Date(Date.now() + 3_600_000),
      });
      const file = join(dir, `probe-${serial}-cert.pub`);
      writeFileSync(file, `${formatSshCertificate(cert)}\n`);
      return spawnSync('ssh-keygen', ['-Q', '-f', krlFile, file], { encoding: 'utf8' }).status;
    };
    const revokedExit = query(serials[KRL_N >> 1]);
    const liveExit = query(serials[serials.length - 1] + 1n);
    console.log(
      `  ssh-keygen -Q: a revoked serial exits ${revokedExit} (REVOKED), an unrevoked one ${liveExit}`,
    );
    if (revokedExit !== 1 || liveExit !== 0) process.exitCode = 1;
    if (issued !== N || rebuildMs > 1000 || rate < 3000) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await app.close();
    if (process.env['BENCH_KEEP_DB'] !== '1')
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
