import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bearer } from '../support/catalog';
import { findingsOf, type StoredFinding } from '../support/findings-db';
import { type Login } from '../support/sessions';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { type TestApp } from '../support/test-app';
import { FIXTURES } from '@platform/report-parsing/testing';
import { freshProduct } from '../support/findings-seed';

/**
 * What flawfinder reports on fixtures/vulnerable.c, by line: rule, severity. The same list
 * as the parser's unit test of the committed report (sarif-reader.flawfinder.spec.ts).
 */
const EXPECTED: [rule: string, line: number, severity: string][] = [
  ['FF1013', 7, 'LOW'],
  ['FF1001', 8, 'HIGH'],
  ['FF1016', 9, 'HIGH'],
  ['FF1013', 13, 'LOW'],
  ['FF1014', 14, 'HIGH'],
  ['FF1013', 19, 'LOW'],
  ['FF1015', 20, 'HIGH'],
  ['FF1044', 21, 'HIGH'],
  ['FF1005', 25, 'HIGH'],
  ['FF1037', 26, 'MEDIUM'],
  ['FF1013', 31, 'LOW'],
];

/**
 * Runs Debian's `flawfinder --sarif` on a copy of the C fixture, from the copy's directory so
 * the report names the file `vulnerable.c` as the committed report does.
 */
async function runFlawfinder(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'flawfinder-e2e-'));
  try {
    copyFileSync(join(FIXTURES, 'vulnerable.c'), join(dir, 'vulnerable.c'));
    const { stdout } = await promisify(execFile)('flawfinder', ['--sarif', 'vulnerable.c'], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'flawfinder is not installed: this test runs the real scanner ' +
          '(`apt-get install -y flawfinder`; .ci/run installs it)',
      );
    }
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const byLine = (a: StoredFinding, b: StoredFinding): number =>
  (a.start_line ?? 0) - (b.start_line ?? 0) || a.rule_id.localeCompare(b.rule_id);

/** What identifies a finding and what the user sees of it, in line order. */
const summary = (findings: StoredFinding[]) =>
  [...findings]
    .sort(byLine)
    .map((f) => [f.identity_hash, f.rule_id, f.file_path, f.start_line, f.severity]);

let t: TestApp;
let admin: Login;
let stack: IngestionStack;
let scannerOutput: string;

beforeAll(async () => {
  scannerOutput = await runFlawfinder();
  stack = await startIngestion({ worker: true });
  ({ t, admin } = stack);
}, 30_000);
afterAll(() => stack?.close());

describe('Upload real scanner output - /api/v1/products/{product_id}/reports (POST)', () => {
  it('ingests what flawfinder --sarif reports on the C fixture: rules, file, lines, severities', async () => {
    const product = await freshProduct(t, admin);
    const id = await uploadReport(t, bearer(admin), product.id, scannerOutput, {
      filename: 'flawfinder.sarif',
    });
    const report = await waitForReport(t, bearer(admin), id);
    expect(report).toMatchObject({
      status: 'completed',
      format: 'sarif',
      scanner: 'Flawfinder',
      counts: { new: 11, updated: 0, renewed: 0, results: 11 },
    });

    const findings = (await findingsOf(t, product.id)).sort(byLine);
    expect(findings.map((f) => [f.rule_id, f.start_line, f.severity])).toEqual(EXPECTED);
    expect(findings.map((f) => f.file_path)).toEqual(EXPECTED.map(() => 'vulnerable.c'));
    expect(findings.every((f) => f.status === 'new' && f.scanner === 'Flawfinder')).toBe(true);
    expect(findings.every((f) => Object.keys(f.sources).includes('Flawfinder'))).toBe(true);
    expect(new Set(findings.map((f) => f.identity_hash)).size).toBe(11);
  }, 30_000);

  it('yields the same findings as the committed report (the fixture is representative)', async () => {
    const live = await freshProduct(t, admin);
    const committed = await freshProduct(t, admin);
    await waitForReport(
      t,
      bearer(admin),
      await uploadReport(t, bearer(admin), live.id, scannerOutput),
    );
    await waitForReport(
      t,
      bearer(admin),
      await uploadReport(
        t,
        bearer(admin),
        committed.id,
        readFileSync(join(FIXTURES, 'flawfinder-vulnerable.sarif')),
      ),
    );
    const liveFindings = await findingsOf(t, live.id);
    expect(liveFindings).toHaveLength(EXPECTED.length);
    expect(summary(liveFindings)).toEqual(summary(await findingsOf(t, committed.id)));

    // In the same product, the committed report matches every finding of the live one.
    const again = await waitForReport(
      t,
      bearer(admin),
      await uploadReport(
        t,
        bearer(admin),
        live.id,
        readFileSync(join(FIXTURES, 'flawfinder-vulnerable.sarif')),
      ),
    );
    expect(again.counts).toEqual({ new: 0, updated: 11, renewed: 0, results: 11, duplicates: 0 });
    expect(await findingsOf(t, live.id)).toHaveLength(11);
  }, 30_000);
});
