/**
 * License ledger check benchmark (not part of `npm test`): what the integrity check costs each
 * approval (or Kubernetes credential) that needs a new device slot, as the ledger grows.
 *
 *   bash tools/stack/stack.sh up && eval "$(bash tools/stack/stack.sh env)"
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/license-ledger/ledger-bench.ts
 *
 * Boots the certificate-service API in this process on a fresh database of the stack's
 * PostgreSQL and grows the usage ledger through the service's own path (LicenseSlotsService.decide
 * + commit: chained rows, slots, a signed checkpoint per batch of 1 000 identities). At each
 * size it times `LicenseLedgerService.integrityProblem` inside a ledger transaction — the check run
 * before each new counted issuance: both checkpoint signatures, every ledger row read, the
 * prefix digest and the hash chain re-computed, the slot count — and, as the in-run reference,
 * the floor of any full re-hash: the same rows read by one plain SELECT plus one SHA-256 pass
 * over their fields in this process. Also: one approval of a new device through
 * `POST /api/v1/requests/approve` at that size (check included), median of a few.
 *
 * Env: BENCH_SIZES (comma list of ledger rows, default 1000,10000,50000), BENCH_REPEAT (timed
 * calls per figure, default 7), BENCH_KEEP_DB=1.
 */
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { DataSource } from 'typeorm';
import { createCertificateApp } from '../../../apps/certificate-service/src/api/create-app';
import { loadCertsvcConfig } from '../../../apps/certificate-service/src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../../apps/certificate-service/src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../../apps/certificate-service/src/app/metrics/certsvc-metrics';
import { LicenseLedgerService } from '../../../apps/certificate-service/src/modules/license/license-ledger.service';
import { LicenseSlotsService } from '../../../apps/certificate-service/src/modules/license/license-slots.service';
import { toPem } from '@platform/pki';
import { ecKeyPair, makeCsr } from '@platform/pki/testing';
import { post } from '../support/http-client';
import { stackUrl, adminQuery } from '../support/stack-db';

const SIZES = (process.env['BENCH_SIZES'] ?? '1000,10000,50000').split(',').map(Number);
const REPEAT = Number(process.env['BENCH_REPEAT'] ?? 7);
const ADMIN = { email: 'bench@certsvc.local', password: 'bench-password-1234' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function main(): Promise<void> {
  const dbName = `bench_ledger_${Date.now()}`;
  await adminQuery(`CREATE DATABASE ${dbName}`);
  const url = new URL(stackUrl());
  url.pathname = `/${dbName}`;
  const config = loadCertsvcConfig({
    CERTSVC_DATABASE_URL: url.toString(),
    CERTSVC_JWT_SECRET: 'bench-secret-for-the-ledger-benchmark-000000000',
    CERTSVC_CA_KEY_ENC_KEY: '07'.repeat(32),
    CERTSVC_LOG_LEVEL: 'warn',
    CERTSVC_LOCAL_ADMIN_EMAIL: ADMIN.email,
    CERTSVC_LOCAL_ADMIN_PASSWORD: ADMIN.password,
    CERTSVC_HOST: '127.0.0.1',
    CERTSVC_DEFAULT_MAX_DEVICES: '1000000',
  });
  const app = await createCertificateApp({
    config,
    logger: createCertsvcLogger(config),
    metrics: new CertsvcMetrics({ processMetrics: false }),
  });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const slots = app.get(LicenseSlotsService);
  const ledger = app.get(LicenseLedgerService);
  const db = app.get(DataSource);
  try {
    console.log(
      `node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${REPEAT} timed calls per figure`,
    );
    const login = await post<{ access_token: string }>(base, '/api/v1/auth/local/login', ADMIN);
    const token = login.body.access_token;
    let rows = 0;
    let enrolled = 0;
    /** A new device with a pending wifi request (enrolled, not approved). */
    const pendingRequest = async (): Promise<string> => {
      enrolled += 1;
      const serial = `BENCH-LEDGER-${Date.now()}-${enrolled}`;
      const nonce = (await post<{ nonce: string }>(base, '/api/v1/enroll/nonce', {})).body.nonce;
      const res = await post<{ request_id: string }>(base, '/api/v1/enroll', {
        csr: toPem('CERTIFICATE REQUEST', makeCsr({ keyPair: ecKeyPair(), commonName: serial })),
        serial,
        nonce,
        agent_version: '2.4.1',
        platform: 'linux',
        hostname: 'bench-host',
      });
      if (res.status !== 201) throw new Error(`enroll: ${res.status}`);
      return res.body.request_id;
    };
    for (const size of SIZES) {
      while (rows < size) {
        const batch = Array.from(
          { length: Math.min(1000, size - rows) },
          (_, i) => `sn:bench-${rows + i}`,
        );
        await slots.inLedgerTransaction(async (tx) => {
          const decision = await slots.decide(tx, batch);
          if (decision.refused.size > 0) throw new Error(`refused: ${decision.refusal}`);
          await decision.commit(
            batch.map((identityKey) => ({ identityKey, deviceId: null })),
            new Date(),
          );
        });
        rows += batch.length;
      }
      const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM license_ledger`)) as {
        n: number;
      }[];
      const checks: number[] = [];
      const refs: number[] = [];
      const approvals: number[] = [];
      for (let i = 0; i < REPEAT; i += 1) {
        checks.push(
          await timed(() =>
            slots.inLedgerTransaction(async (tx) => {
              const problem = await ledger.integrityProblem(tx, await tx.state());
              if (problem) throw new Error(`ledger check failed: ${problem}`);
            }),
          ),
        );
        refs.push(
          await timed(async () => {
            const all = (await db.query(
              `SELECT seq, identity_key, event, at, prev_hash, hash FROM license_ledger ORDER BY seq`,
            )) as {
              seq: string;
              identity_key: string;
              event: string;
              at: Date;
              prev_hash: string;
              hash: string;
            }[];
            const h = createHash('sha256');
            for (const r of all) {
              h.update(
                `${r.seq}\u0000${r.identity_key}\u0000${r.event}\u0000${r.at.toISOString()}\u0000${r.prev_hash}\u0000${r.hash}`,
              );
            }
            h.digest('hex');
          }),
        );
        const requestId = await pendingRequest();
        approvals.push(
          await timed(async () => {
            const res = await post<{ results: { status: string }[] }>(
              base,
              '/api/v1/requests/approve',
              { request_ids: [requestId] },
              token,
            );
            if (res.body.results?.[0]?.status !== 'issued') {
              throw new Error(`approve: ${res.status} ${JSON.stringify(res.body)}`);
            }
          }),
        );
      }
      rows = n + REPEAT; // the approvals counted their devices
      const check = median(checks);
      const ref = median(refs);
      console.log(
        `ledger ${n} rows: check ${check.toFixed(1)} ms (${((check / n) * 1000).toFixed(2)} µs/row), reference (plain SELECT + SHA-256 pass) ${ref.toFixed(1)} ms, ratio ${(check / ref).toFixed(2)}; approval of a new device ${median(approvals).toFixed(1)} ms; load ${loadavg()[0].toFixed(1)}`,
      );
    }
  } finally {
    await app.close();
    if (process.env['BENCH_KEEP_DB'] !== '1') {
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
