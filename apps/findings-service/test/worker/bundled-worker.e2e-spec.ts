import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bearer, createProduct, createProject } from '../support/catalog';
import { loginAdmin, Login } from '../support/identities';
import { IngestionEnv, ingestionEnv } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { syntheticSarif } from '../support/synthetic-sarif';
import { startTestApp, TestApp } from '../support/test-app';
import { fixture } from '@platform/report-parsing/testing';

/**
 * The deployable worker: `dist/apps/findings-service/worker.js` as `node worker.js` runs it,
 * with its parser thread loaded from the bundled `ingest-parser.js` beside it (the sources are
 * never used). Built here through Nx (a cache hit when nothing changed).
 */
const ROOT = join(__dirname, '../../../..');
const DIST = join(ROOT, 'dist/apps/findings-service');

let t: TestApp;
let admin: Login;
let env: IngestionEnv;
let worker: ChildProcess | undefined;

beforeAll(async () => {
  execFileSync('bash', ['tools/build.sh', 'findings-service'], { cwd: ROOT, stdio: 'ignore' });
  env = ingestionEnv();
  t = await startTestApp(env.vars);
  admin = await loginAdmin(t);
}, 300_000);
afterAll(async () => {
  if (worker?.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
  await t.close();
  env.cleanup();
});

describe('Bundled worker - dist/apps/findings-service/worker.js', () => {
  it('ingests reports with the bundled parser thread, the same thread for the next report', async () => {
    expect(existsSync(join(DIST, 'ingest-parser.js'))).toBe(true);
    worker = spawn(process.execPath, ['worker.js'], {
      cwd: DIST,
      env: {
        PATH: process.env.PATH ?? '',
        ...env.vars,
        DATABASE_URL: t.config.databaseUrl,
        REDIS_URL: t.config.redisUrl,
        METRICS_PORT: '0',
        LOG_LEVEL: 'error',
        LOG_FILE_SINK_ENABLED: 'false',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const project = await createProject(t, bearer(admin));
    const product = await createProduct(t, bearer(admin), project.id);
    const flawfinder = fixture('flawfinder-vulnerable.sarif');

    const first = await uploadReport(t, bearer(admin), product.id, flawfinder);
    const done = await waitForReport(t, bearer(admin), first, 60_000);
    expect(done).toMatchObject({ status: 'completed', scanner: 'Flawfinder' });
    expect(done.counts).toMatchObject({ new: 11, results: 11 });

    const second = await uploadReport(t, bearer(admin), product.id, syntheticSarif(5_000));
    const big = await waitForReport(t, bearer(admin), second, 60_000);
    expect(big).toMatchObject({ status: 'completed' });
    expect(big.counts).toMatchObject({ new: 5_000, results: 5_000 });

    const malformed = await uploadReport(
      t,
      bearer(admin),
      product.id,
      '{"version":"2.1.0","runs":[',
    );
    const failed = await waitForReport(t, bearer(admin), malformed, 60_000);
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'report_malformed' });
    expect(worker.exitCode).toBeNull();

    // A parked parser thread does not hold the process: SIGTERM ends it promptly.
    const child = worker;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const started = Date.now();
    child.kill('SIGTERM');
    await exited;
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 180_000);
});
