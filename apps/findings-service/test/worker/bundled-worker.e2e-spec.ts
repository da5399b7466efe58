import { REPOSITORY_ROOT, startServiceProcess, type ServiceProcess } from '@platform/testing';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bearer } from '../support/catalog';
import { freshProduct } from '../support/findings-seed';
import { Login } from '../support/sessions';
import { IngestionStack, startIngestion, workerEnv } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { syntheticSarif } from '../support/synthetic-sarif';
import { TestApp } from '../support/test-app';
import { fixture } from '@platform/report-parsing/testing';

/**
 * The deployable worker: `dist/apps/findings-service/worker.js` as `node worker.js` runs it,
 * with its parser thread loaded from the bundled `ingest-parser.js` beside it (the sources are
 * never used). Built here through Nx (a cache hit when nothing changed).
 */
const DIST = join(REPOSITORY_ROOT, 'dist/apps/findings-service');

let t: TestApp;
let admin: Login;
let stack: IngestionStack;
let worker: ServiceProcess | undefined;

beforeAll(async () => {
  execFileSync('bash', ['tools/build.sh', 'findings-service'], {
    cwd: REPOSITORY_ROOT,
    stdio: 'ignore',
    // The bundle as shipped, without the build's own type-check (npm test's static checks ran it).
    env: { ...process.env, BUILD_TYPECHECK: 'false' },
  });
  stack = await startIngestion();
  ({ t, admin } = stack);
}, 300_000);
afterAll(async () => {
  await worker?.kill();
  await stack?.close();
});

describe('Bundled worker - dist/apps/findings-service/worker.js', () => {
  it('ingests reports with the bundled parser thread, the same thread for the next report', async () => {
    expect(existsSync(join(DIST, 'ingest-parser.js'))).toBe(true);
    worker = startServiceProcess({
      bundle: join(DIST, 'worker.js'),
      env: workerEnv(t, stack.env.vars),
    });
    const product = await freshProduct(t, admin);
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
    expect(worker.running()).toBe(true);

    // A parked parser thread does not hold the process: SIGTERM ends it promptly.
    const started = Date.now();
    await worker.stop();
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 180_000);
});
