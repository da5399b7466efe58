/**
 * TPM-attested enrollment benchmark (not part of `npm test`): attested enrollments per second
 * through real software TPMs, beside the software TPM's own quote rate in the same run.
 *
 *   bash tools/stack/stack.sh up && eval "$(bash tools/stack/stack.sh env)"
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/tpm/attested-enroll-bench.ts
 *
 * Boots the certificate-service API in this process on a fresh database, starts BENCH_TPMS
 * swtpm instances (default 4; each manufactured by swtpm_setup with its own vendor root, which
 * an admin registers) and drives each like a Linux agent with tpm2-tools: for every enrollment
 * a new serial, `POST /enroll/nonce` with the EK certificate and AK (a credential-activation
 * challenge: MakeCredential on the server), `tpm2_activatecredential`, `tpm2_quote` over the
 * nonce, `tpm2_certify` of the CSR key, then `POST /enroll` (EK chain, quote, activation and
 * certify checked, keys pinned). One enrollment at a time per TPM, all TPMs in parallel, for
 * BENCH_SECONDS (default 20). Printed: enrollments/s, and where the time goes (TPM commands
 * on the client, the two HTTP calls).
 *
 * In-run reference: `tpm2_quote` alone on the same TPMs, in parallel, for the same time — the
 * cheapest signed TPM statement an attested enrollment needs. Compare machines by the ratio
 * enrollments/s ÷ quotes/s (each enrollment costs the TPM about six tpm2-tools commands).
 */
import 'reflect-metadata';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { createCertificateApp } from '../../../apps/certificate-service/src/api/create-app';
import { loadCertsvcConfig } from '../../../apps/certificate-service/src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../../apps/certificate-service/src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../../apps/certificate-service/src/app/metrics/certsvc-metrics';
import { SwtpmDevice } from '../../../apps/certificate-service/test/support/swtpm-device';
import { post } from '../support/http-client';
import { adminQuery, stackUrl } from '../support/stack-db';

const TPMS = Number(process.env['BENCH_TPMS'] ?? 4);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 20);
const ADMIN = { email: 'bench@certsvc.local', password: 'bench-password-1234' };

interface Split {
  enrollments: number;
  tpmMs: number;
  httpMs: number;
}

/** Enrolls fresh serials through `device` until `deadline`; times TPM work and HTTP apart. */
async function enrollLoop(
  base: string,
  device: SwtpmDevice,
  index: number,
  deadline: number,
): Promise<Split> {
  const split: Split = { enrollments: 0, tpmMs: 0, httpMs: 0 };
  const csr = await device.csr(`BENCH-TPM-${index}`);
  for (let n = 0; Date.now() < deadline; n++) {
    const serial = `BENCH-TPM-${index}-${n}`;
    let t = performance.now();
    const answer = await post<{
      nonce: string;
      activation: { credential_blob: string; encrypted_secret: string };
    }>(base, '/api/v1/enroll/nonce', { serial, tpm: device.nonceBody() });
    split.httpMs += performance.now() - t;
    if (answer.status !== 201 || !answer.body.activation)
      throw new Error(`nonce: ${answer.status}`);
    t = performance.now();
    const evidence = await device.evidence(answer.body.nonce, answer.body.activation);
    split.tpmMs += performance.now() - t;
    t = performance.now();
    const enrolled = await post<{ request_id: string }>(base, '/api/v1/enroll', {
      csr,
      serial,
      nonce: answer.body.nonce,
      platform: 'linux',
      tpm: evidence,
    });
    split.httpMs += performance.now() - t;
    if (enrolled.status !== 201)
      throw new Error(`enroll: ${enrolled.status} ${JSON.stringify(enrolled.body)}`);
    split.enrollments += 1;
  }
  return split;
}

async function quoteLoop(device: SwtpmDevice, deadline: number): Promise<number> {
  let quotes = 0;
  while (Date.now() < deadline) {
    await device.quote(`reference-${quotes}`);
    quotes += 1;
  }
  return quotes;
}

async function main(): Promise<void> {
  const dbName = `bench_tpm_${Date.now()}`;
  await adminQuery(`CREATE DATABASE ${dbName}`);
  const url = new URL(stackUrl());
  url.pathname = `/${dbName}`;
  const config = loadCertsvcConfig({
    CERTSVC_DATABASE_URL: url.toString(),
    CERTSVC_JWT_SECRET: 'bench-secret-for-the-tpm-benchmark-0000000000',
    CERTSVC_CA_KEY_ENC_KEY: '07'.repeat(32),
    CERTSVC_LOG_LEVEL: 'error',
    CERTSVC_LOCAL_ADMIN_EMAIL: ADMIN.email,
    CERTSVC_LOCAL_ADMIN_PASSWORD: ADMIN.password,
    CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '10000000',
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
  const devices = await Promise.all(Array.from({ length: TPMS }, () => SwtpmDevice.start()));
  try {
    console.log(
      `node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB; ${TPMS} swtpm instances, ${SECONDS} s per phase`,
    );
    const token = (await post<{ access_token: string }>(base, '/api/v1/auth/local/login', ADMIN))
      .body.access_token;
    for (const [i, d] of devices.entries()) {
      const res = await post(
        base,
        '/api/v1/settings/tpm-roots',
        { name: `swtpm ${i}`, certificate_pem: d.ek.vendorRootPem },
        token,
      );
      if (res.status !== 201) throw new Error(`vendor root: ${res.status}`);
    }

    let deadline = Date.now() + SECONDS * 1000;
    const quotes = (await Promise.all(devices.map((d) => quoteLoop(d, deadline)))).reduce(
      (a, b) => a + b,
      0,
    );
    const quoteRate = quotes / SECONDS;
    console.log(
      `reference: tpm2_quote alone, ${TPMS} TPMs in parallel: ${quotes} quotes, ${quoteRate.toFixed(1)}/s`,
    );

    deadline = Date.now() + SECONDS * 1000;
    const started = Date.now();
    const splits = await Promise.all(devices.map((d, i) => enrollLoop(base, d, i, deadline)));
    const elapsed = (Date.now() - started) / 1000;
    const total = splits.reduce(
      (a, s) => ({
        enrollments: a.enrollments + s.enrollments,
        tpmMs: a.tpmMs + s.tpmMs,
        httpMs: a.httpMs + s.httpMs,
      }),
      { enrollments: 0, tpmMs: 0, httpMs: 0 },
    );
    const rate = total.enrollments / elapsed;
    console.log(
      `attested enrollments (activation + quote + certify, EK chain checked): ${total.enrollments} in ${elapsed.toFixed(1)} s, ${rate.toFixed(1)}/s`,
    );
    console.log(
      `per enrollment: TPM commands on the client ${(total.tpmMs / total.enrollments).toFixed(1)} ms, the two HTTP calls (server side) ${(total.httpMs / total.enrollments).toFixed(1)} ms`,
    );
    console.log(`ratio enrollments/s ÷ quotes/s: ${(rate / quoteRate).toFixed(3)}`);
  } finally {
    await Promise.all(devices.map((d) => d.stop()));
    await app.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
