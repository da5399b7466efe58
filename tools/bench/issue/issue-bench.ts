/**
 * Issuance benchmark (not part of `npm test`): bulk approval end to end through HTTP.
 *
 *   bash tools/stack/stack.sh up && eval "$(bash tools/stack/stack.sh env)"
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/issue/issue-bench.ts
 *
 * Boots the certificate-service API in this process on a fresh database of the stack's
 * PostgreSQL, enrolls N devices with EC P-256 CSRs through `POST /api/v1/enroll` (a nonce
 * each), then approves them in batches through `POST /api/v1/requests/approve` and prints
 * certificates/s for the approval phase (HTTP, checks, CSR re-verification, build, sign,
 * database) and the share of each phase measured by the service's issuance timing hook.
 * Build vs sign inside the issuer are split by timing the same builder on the same CA.
 * Then, as the in-run reference, raw ECDSA P-256 signing of the same count with node:crypto
 * (signing-reference.ts), and the ratio certificates/s / signatures/s: compare machines by it.
 * Env: BENCH_N (default 2000), BENCH_BATCH (default 500), BENCH_PARALLEL (approval calls
 * in flight, default 1), BENCH_KEEP_DB=1 keeps the database.
 */
import 'reflect-metadata';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { Client } from 'pg';
import { createCertificateApp } from '../../../apps/certificate-service/src/api/create-app';
import { loadCertsvcConfig } from '../../../apps/certificate-service/src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../../apps/certificate-service/src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../../apps/certificate-service/src/app/metrics/certsvc-metrics';
import { IssuanceTimings } from '../../../apps/certificate-service/src/modules/issuance/issuance-timings';
import {
  generateCaMaterial,
  LeafCertificateBuilder,
  loadIssuingCa,
  parseCsr,
  toPem,
} from '@platform/pki';
import { ecKeyPair, makeCsr } from '@platform/pki/testing';
import { rawSigningReference } from './signing-reference';
import { pool, post } from '../support/http-client';
import { stackUrl } from '../support/stack-db';

const N = Number(process.env['BENCH_N'] ?? 2000);
const BATCH = Number(process.env['BENCH_BATCH'] ?? 500);
const PARALLEL = Number(process.env['BENCH_PARALLEL'] ?? 1);
const ENROLL_CONCURRENCY = 16;
const ADMIN = { email: 'bench@certsvc.local', password: 'bench-password-1234' };

async function createDatabase(name: string): Promise<string> {
  const admin = new Client({ connectionString: stackUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(stackUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(name: string): Promise<void> {
  const admin = new Client({ connectionString: stackUrl() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

/**
 * µs per TBS build and per signature with the same builder and CA kind the service uses, and
 * the size of a leaf's TBS.
 */
function buildSignSplit(csrs: Buffer[]): { buildUs: number; signUs: number; tbsBytes: number } {
  const kek = Buffer.alloc(32, 7);
  const ca = loadIssuingCa(generateCaMaterial(kek), kek);
  const builder = new LeafCertificateBuilder(ca);
  const parsed = csrs.slice(0, 64).map((c) => parseCsr(c));
  const leaf = (i: number) => ({
    purpose: 'wifi' as const,
    subjectCommonName: `BENCH-${i}`,
    publicKeySpkiDer: parsed[i % parsed.length].publicKeySpkiDer,
    keyAlgorithm: 'ec' as const,
  });
  const rounds = 5000;
  for (let i = 0; i < 500; i++) ca.signer.sign(builder.buildTbs(leaf(i)).tbsDer);
  let t = process.hrtime.bigint();
  const tbs: Buffer[] = [];
  for (let i = 0; i < rounds; i++) tbs.push(builder.buildTbs(leaf(i)).tbsDer);
  const buildUs = Number(process.hrtime.bigint() - t) / 1000 / rounds;
  t = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) ca.signer.sign(tbs[i]);
  const signUs = Number(process.hrtime.bigint() - t) / 1000 / rounds;
  return { buildUs, signUs, tbsBytes: tbs[0].length };
}

async function main(): Promise<void> {
  const dbName = `bench_issue_${Date.now()}`;
  const databaseUrl = await createDatabase(dbName);
  const config = loadCertsvcConfig({
    CERTSVC_DATABASE_URL: databaseUrl,
    CERTSVC_JWT_SECRET: 'bench-secret-for-the-issuance-benchmark-000000',
    CERTSVC_CA_KEY_ENC_KEY: '07'.repeat(32),
    CERTSVC_LOG_LEVEL: 'warn',
    CERTSVC_LOCAL_ADMIN_EMAIL: ADMIN.email,
    CERTSVC_LOCAL_ADMIN_PASSWORD: ADMIN.password,
    CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '10000000',
    CERTSVC_DEFAULT_MAX_DEVICES: String(N + 10),
    CERTSVC_HOST: '127.0.0.1',
  });
  const logger = createCertsvcLogger(config);
  const app = await createCertificateApp({
    config,
    logger,
    metrics: new CertsvcMetrics({ processMetrics: false }),
  });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    console.log(
      `node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB; N=${N}, batch=${BATCH}, parallel=${PARALLEL}`,
    );
    let t0 = Date.now();
    const csrs = Array.from({ length: N }, (_, i) =>
      makeCsr({ keyPair: ecKeyPair(), commonName: `BENCH-${i}` }),
    );
    console.log(
      `generated ${N} EC P-256 CSRs in ${Date.now() - t0} ms (client side, not measured)`,
    );

    t0 = Date.now();
    const requestIds: string[] = [];
    await pool([...csrs.keys()], ENROLL_CONCURRENCY, async (i) => {
      const nonce = await post<{ nonce: string }>(base, '/api/v1/enroll/nonce', {});
      const enrolled = await post<{ request_id: string }>(base, '/api/v1/enroll', {
        csr: toPem('CERTIFICATE REQUEST', csrs[i]),
        serial: `BENCH-${String(i).padStart(6, '0')}`,
        nonce: nonce.body.nonce,
      });
      if (enrolled.status !== 201)
        throw new Error(`enroll ${i}: ${enrolled.status} ${JSON.stringify(enrolled.body)}`);
      requestIds.push(enrolled.body.request_id);
    });
    const enrollMs = Date.now() - t0;
    console.log(
      `enrolled ${N} devices over HTTP in ${enrollMs} ms (${Math.round((N / enrollMs) * 1000)}/s)`,
    );

    const login = await post<{ access_token: string }>(base, '/api/v1/auth/local/login', ADMIN);
    const token = login.body.access_token;
    const timings = app.get(IssuanceTimings);
    timings.reset();
    const batches: string[][] = [];
    for (let i = 0; i < requestIds.length; i += BATCH) batches.push(requestIds.slice(i, i + BATCH));
    let issued = 0;
    const started = process.hrtime.bigint();
    await pool(batches, PARALLEL, async (ids) => {
      const res = await post<{ results: { status: string; error?: string }[] }>(
        base,
        '/api/v1/requests/approve',
        { request_ids: ids },
        token,
      );
      if (res.status !== 200) throw new Error(`approve: ${res.status} ${JSON.stringify(res.body)}`);
      issued += res.body.results.filter((r) => r.status === 'issued').length;
    });
    const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
    const phases = timings.snapshot();
    const { buildUs, signUs, tbsBytes } = buildSignSplit(csrs);
    const buildMs = (phases.issueMs * buildUs) / (buildUs + signUs);
    const signMs = phases.issueMs - buildMs;
    const otherMs = Math.max(0, totalMs - phases.issueMs - phases.databaseMs);
    const pct = (ms: number) =>
      `${((ms / totalMs) * 100).toFixed(1).padStart(5)} %  (${ms.toFixed(0)} ms)`;
    console.log(
      `\napproved ${issued}/${N} in ${totalMs.toFixed(0)} ms: ${Math.round((issued / totalMs) * 1000)} certificates/s end to end`,
    );
    // CSR verification happens at enrollment; approval issues from the stored public key.
    console.log(`  CSR verification       0.0 %  (done at enrollment, not repeated)`);
    console.log(`  certificate building ${pct(buildMs)}`);
    console.log(`  signing              ${pct(signMs)}`);
    console.log(
      `  database             ${pct(phases.databaseMs)}  (lock, claim, slots, INSERT, UPDATE, ledger, commit)`,
    );
    console.log(
      `  HTTP, checks, audit  ${pct(otherMs)}  (rest: request parsing, request/device read, audit rows, JSON)`,
    );
    console.log(
      `  (build ${buildUs.toFixed(1)} µs vs sign ${signUs.toFixed(1)} µs per certificate, measured on the same builder)`,
    );
    const rate = Math.round((issued / totalMs) * 1000);
    const reference = rawSigningReference(issued, tbsBytes);
    const referenceRate = Math.round(reference.perSecond);
    console.log(
      `\nreference: raw ECDSA P-256 signing (node:crypto, this process) of ${reference.signatures} ` +
        `${tbsBytes}-byte messages in ${reference.ms.toFixed(0)} ms ` +
        `(median of ${reference.runsMs.map((ms) => ms.toFixed(0)).join(' / ')}): ${referenceRate} signatures/s`,
    );
    console.log(
      `ratio: ${rate} certificates/s / ${referenceRate} signatures/s = ${(rate / referenceRate).toFixed(3)}`,
    );
    if (PARALLEL > 1) {
      console.log(
        '  note: with parallel calls the phases overlap (database includes lock waits); shares need BENCH_PARALLEL=1',
      );
    }
    if (issued !== N) process.exitCode = 1;
  } finally {
    await app.close();
    if (process.env['BENCH_KEEP_DB'] !== '1') await dropDatabase(dbName);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
