import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import {
  bearer,
  createProduct,
  createProject,
  FINDINGS_ADMIN_EMAIL as ADMIN_EMAIL,
  FINDINGS_ADMIN_PASSWORD as ADMIN_PASSWORD,
  startIngestion,
  type IngestionStack,
} from './support/services';
import { cliHome, describeRun, type CliHome } from './support/run-cli';

// `platform upload` streams the report: a ~100 MB SARIF goes out with the CLI process's peak
// resident set size (getrusage maxrss, read by a preload at exit) at most 150 MB.
const TARGET_BYTES = 100 * 1024 * 1024;
const MAX_RSS_KIB = 150 * 1024;

let stack: IngestionStack;
let home: CliHome;

/** Writes a SARIF of about `bytes` (one run, many file results), 1 MiB at a time. */
function writeLargeSarif(file: string, bytes: number): number {
  const fd = openSync(file, 'w');
  let written = writeSync(
    fd,
    '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"bulk","rules":[]}},"results":[',
  );
  let i = 0;
  while (written < bytes) {
    const batch: string[] = [];
    for (let k = 0; k < 2000; k++, i++) {
      batch.push(
        JSON.stringify({
          ruleId: `rule-${i % 50}`,
          level: 'warning',
          message: { text: `generated result ${i} ${'x'.repeat(380)}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: `src/f${i}.c` },
                region: { startLine: 1 + (i % 900) },
              },
            },
          ],
        }),
      );
    }
    written += writeSync(fd, (i > 2000 ? ',' : '') + batch.join(','));
  }
  written += writeSync(fd, ']}]}');
  closeSync(fd);
  return written;
}

beforeAll(async () => {
  stack = await startIngestion({ worker: false });
  home = cliHome();
  const login = await home.run(
    ['login', 'findings', '--url', stack.t.url, '--email', ADMIN_EMAIL, '--password-stdin'],
    {
      stdin: ADMIN_PASSWORD,
    },
  );
  if (login.code !== 0) throw new Error(`login failed: ${describeRun(login)}`);
}, 60_000);

afterAll(async () => {
  home?.remove();
  await stack?.close();
});

it('uploads a ~100 MB SARIF with a peak RSS of at most 150 MB, every byte stored', async () => {
  const file = join(home.dir, 'large.sarif');
  const size = writeLargeSarif(file, TARGET_BYTES);
  expect(statSync(file).size).toBe(size);
  const project = await createProject(stack.t, bearer(stack.admin));
  const product = await createProduct(stack.t, bearer(stack.admin), project.id);
  const rssFile = join(home.dir, 'rss');
  const r = await home.run(
    ['upload', file, '--product', product.id, '--format', 'sarif', '--json'],
    {
      nodeArgs: ['--require', join(__dirname, 'support', 'peak-rss.js')],
      env: { PLATFORM_TEST_RSS_FILE: rssFile },
    },
  );
  expect(describeRun(r)).toMatch(/^exit 0/);
  const peakKiB = Number(readFileSync(rssFile, 'utf8'));
  console.log(
    `platform upload of ${(size / 1048576).toFixed(1)} MiB: peak RSS ${(peakKiB / 1024).toFixed(1)} MiB`,
  );
  expect(peakKiB).toBeGreaterThan(0);
  expect(peakKiB).toBeLessThanOrEqual(MAX_RSS_KIB);
  const reportId = (JSON.parse(r.stdout) as { report_id: string }).report_id;
  const report = await stack.t
    .http()
    .get(`/api/v1/reports/${reportId}`)
    .set('Authorization', `Bearer ${stack.admin.token}`)
    .expect(200);
  expect((report.body as { data: { size_bytes: number } }).data.size_bytes).toBe(size);
}, 60_000);
