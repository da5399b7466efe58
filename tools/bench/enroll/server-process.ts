/**
 * The enrollment bench's certificate service, in a process of its own (so that its CPU time is
 * read from /proc apart from the clients', and `node --cpu-prof` profiles it alone): booted as
 * in production — createCertificateApp on a fresh database, the rate limits counted in Redis
 * (one `EVAL` per request, as with N replicas) with budgets the bench cannot exhaust, the access
 * log at `info` (one JSON line per request, written to BENCH_LOG, /dev/null by default).
 * Prints `{"port":n}` once listening; stops when its stdin closes.
 * Env: BENCH_DATABASE_URL (required), BENCH_REDIS_URL (unset: counters in process memory),
 * BENCH_LOG (/dev/null), BENCH_LOG_LEVEL (info), BENCH_QUERY_COUNTS (a file: every SQL statement
 * the process sends, counted by text, written there at exit).
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { Client } from 'pg';
import pino from 'pino';
import { createCertificateApp } from '../../../apps/certificate-service/src/api/create-app';
import { loadCertsvcConfig } from '../../../apps/certificate-service/src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../../apps/certificate-service/src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../../apps/certificate-service/src/app/metrics/certsvc-metrics';

/** Counts the statements sent through `pg` by their text (BENCH_QUERY_COUNTS). */
function countQueries(): Map<string, number> {
  const counts = new Map<string, number>();
  const original = Client.prototype.query as (...args: unknown[]) => unknown;
  (Client.prototype as { query: unknown }).query = function (this: Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : String((first as { text?: string })?.text);
    const key = text.replace(/\s+/g, ' ').slice(0, 160);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return original.apply(this, args);
  };
  return counts;
}

async function main(): Promise<void> {
  const env = process.env;
  const countsFile = env['BENCH_QUERY_COUNTS'];
  const counts = countsFile ? countQueries() : undefined;
  const config = loadCertsvcConfig({
    CERTSVC_DATABASE_URL: env['BENCH_DATABASE_URL'] ?? '',
    ...(env['BENCH_REDIS_URL'] ? { CERTSVC_REDIS_URL: env['BENCH_REDIS_URL'] } : {}),
    CERTSVC_JWT_SECRET: 'bench-secret-for-the-enroll-benchmark-0000000',
    CERTSVC_CA_KEY_ENC_KEY: '07'.repeat(32),
    CERTSVC_LOG_LEVEL: env['BENCH_LOG_LEVEL'] ?? 'info',
    CERTSVC_LOCAL_ADMIN_EMAIL: 'bench@certsvc.local',
    CERTSVC_LOCAL_ADMIN_PASSWORD: 'bench-password-1234',
    CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '100000000',
    CERTSVC_AGENT_RATE_LIMIT_PER_MINUTE: '100000000',
    CERTSVC_HOST: '127.0.0.1',
  });
  const destination = pino.destination({ dest: env['BENCH_LOG'] ?? '/dev/null', sync: false });
  const app = await createCertificateApp({
    config,
    logger: createCertsvcLogger(config, destination),
    metrics: new CertsvcMetrics({ processMetrics: false }),
  });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    void app.close().then(() => {
      destination.flushSync();
      if (countsFile && counts) {
        const sorted = [...counts].sort((a, b) => b[1] - a[1]);
        writeFileSync(countsFile, sorted.map(([sql, n]) => `${n}\t${sql}`).join('\n') + '\n');
      }
      process.exit(0);
    });
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`enroll server: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
