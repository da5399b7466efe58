/**
 * The fleet bench's certificate service, in a process of its own so that its CPU time can be
 * read from /proc apart from the 1 000 agents': booted exactly as tools/bench/issue boots it
 * (createCertificateApp on a fresh database, local admin, rate limits off), on 127.0.0.1.
 * Prints `{"port":n}` once listening; stops when its stdin closes.
 * Env: BENCH_DATABASE_URL (required), BENCH_MAX_DEVICES (licence slots), BENCH_ADMIN_EMAIL,
 * BENCH_ADMIN_PASSWORD.
 */
import 'reflect-metadata';
import { createCertificateApp } from '../../../apps/certificate-service/src/api/create-app';
import { loadCertsvcConfig } from '../../../apps/certificate-service/src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../../apps/certificate-service/src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../../apps/certificate-service/src/app/metrics/certsvc-metrics';

async function main(): Promise<void> {
  const env = process.env;
  const config = loadCertsvcConfig({
    CERTSVC_DATABASE_URL: env['BENCH_DATABASE_URL'] ?? '',
    CERTSVC_JWT_SECRET: 'bench-secret-for-the-fleet-benchmark-00000000',
    CERTSVC_CA_KEY_ENC_KEY: '07'.repeat(32),
    CERTSVC_LOG_LEVEL: 'warn',
    CERTSVC_LOCAL_ADMIN_EMAIL: env['BENCH_ADMIN_EMAIL'] ?? 'bench@certsvc.local',
    CERTSVC_LOCAL_ADMIN_PASSWORD: env['BENCH_ADMIN_PASSWORD'] ?? 'bench-password-1234',
    CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '10000000',
    CERTSVC_AGENT_RATE_LIMIT_PER_MINUTE: '10000000',
    CERTSVC_DEFAULT_MAX_DEVICES: env['BENCH_MAX_DEVICES'] ?? '10000',
    CERTSVC_HOST: '127.0.0.1',
  });
  const app = await createCertificateApp({
    config,
    logger: createCertsvcLogger(config),
    metrics: new CertsvcMetrics({ processMetrics: false }),
  });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    void app.close().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`fleet server: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
