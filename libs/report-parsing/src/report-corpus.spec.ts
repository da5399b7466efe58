import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ReportRunInfo } from './normalized-finding';
import { ReportParseError } from './report-parse.errors';
import { fileReportSource, ReportSource } from './report-source';
import { readReport } from './read-report';
import { addWarnings, IgnoredValues, ResultWarnings } from './result-warnings';
import { collect, CORPUS, corpusPath, oneShot } from './testing/report-fixtures';

/**
 * The corpus of report shapes that must never regress (test/corpus/README.md): every file is
 * read through `readReport` with format detection and compared with `<file>.expected.json`.
 * `CORPUS_UPDATE=1` writes the expectations instead (review every change before committing).
 */
const SHAPES = readdirSync(CORPUS)
  .filter((name) => /\.(sarif|json)$/.test(name) && !name.endsWith('.expected.json'))
  .sort();

interface Observed {
  format?: string;
  findings?: number;
  results?: Record<string, unknown>[];
  skipped?: ResultWarnings;
  ignored?: IgnoredValues;
  runs?: { scanner: string; coverage: unknown }[];
  failure?: { code: string; details: unknown };
}

async function observe(source: ReportSource | AsyncIterable<Buffer>): Promise<Observed> {
  const runs: ReportRunInfo[] = [];
  try {
    const batches = await collect(
      readReport(source, undefined, {}, { onRun: (run) => runs.push(run) }),
    );
    const skipped: ResultWarnings = {};
    const ignored: IgnoredValues = {};
    for (const batch of batches) {
      addWarnings(skipped, batch.skipped);
      addWarnings(ignored, batch.ignored);
    }
    const findings = batches.flatMap((b) => b.findings);
    return {
      format: runs[0]?.format,
      findings: findings.length,
      results: findings.map((f) => ({
        rule_id: f.rule_id,
        ...(f.rule_title === undefined ? {} : { rule_title: f.rule_title }),
        title: f.title,
        severity: f.severity,
        location: f.location,
        cve: f.cve ?? null,
        scanner: f.scanner,
        ...(f.component === undefined ? {} : { component: f.component }),
        ...(f.component_version === undefined ? {} : { component_version: f.component_version }),
      })),
      skipped,
      ignored,
      runs: runs.map((run) => ({ scanner: run.scanner, coverage: run.coverage })),
    };
  } catch (error) {
    if (!(error instanceof ReportParseError)) throw error;
    return { failure: { code: error.code, details: error.details ?? null } };
  }
}

describe('report corpus: shapes scanners really write', () => {
  it('holds shapes, each with its expectation', () => {
    expect(SHAPES.length).toBeGreaterThanOrEqual(10);
    const orphans = readdirSync(CORPUS)
      .filter((name) => name.endsWith('.expected.json'))
      .filter((name) => !SHAPES.includes(name.replace(/\.expected\.json$/, '')));
    expect(orphans).toEqual([]);
  });

  it.each(SHAPES)('%s reads as its expectation', async (name) => {
    const observed = await observe(fileReportSource(corpusPath(name)));
    const expectation = corpusPath(`${name}.expected.json`);
    if (process.env.CORPUS_UPDATE === '1') {
      writeFileSync(expectation, `${JSON.stringify(observed, null, 2)}\n`);
    }
    expect(existsSync(expectation)).toBe(true);
    expect(observed).toEqual(JSON.parse(readFileSync(expectation, 'utf8')));
    // A one-shot stream in odd chunks reads the same.
    expect(await observe(oneShot(readFileSync(corpusPath(name)), 997))).toEqual(observed);
  });
});
