import { collect, fixture, oneShot } from './testing/report-fixtures';
import { FindingBatch } from './normalized-finding';
import { bufferReportSource } from './report-source';
import { memoFromCopyText, ResultMemo, resultDigest, runSeed } from './result-digest';
import { readSarif } from './sarif-reader';

type Log = {
  runs: {
    tool: { driver: Record<string, unknown> & { rules?: Record<string, unknown>[] } };
    versionControlProvenance?: unknown[];
    invocations?: unknown[];
    results: Record<string, unknown>[];
  }[];
};

const FLAWFINDER = JSON.parse(fixture('flawfinder-vulnerable.sarif').toString('utf8')) as Log;

function variant(change: (log: Log) => void): Buffer {
  const log = structuredClone(FLAWFINDER);
  change(log);
  return Buffer.from(JSON.stringify(log));
}

const ORIGINAL = variant(() => undefined);

async function read(report: Buffer, memo?: ResultMemo, batchSize = 4): Promise<FindingBatch[]> {
  return collect(
    readSarif(bufferReportSource(report, 64), {}, { batchSize, memo: async () => memo }),
  );
}

/** A memo of every finding of `report` (finding id = its identity, for the assertions). */
async function memoOf(report: Buffer): Promise<ResultMemo & { size: number }> {
  const batches = await read(report);
  const lines = batches
    .flatMap((b) => b.findings)
    .map((f) => `${f.identity}\t${String(f.content_digest).replace(/^(.{8})(.{4})/, '$1-$2-')}\n`);
  return memoFromCopyText(lines.join(''));
}

describe('Result digests', () => {
  it('digests every result: 128 bits, stable, different per result', async () => {
    const findings = (await read(ORIGINAL)).flatMap((b) => b.findings);
    const digests = findings.map((f) => f.content_digest);
    expect(digests.every((d) => /^[0-9a-f]{32}$/.test(String(d)))).toBe(true);
    expect(new Set(digests).size).toBe(findings.length);
    const again = (await read(ORIGINAL)).flatMap((b) => b.findings.map((f) => f.content_digest));
    expect(again).toEqual(digests);
  });

  it('mixes the run seed into the digest', () => {
    const raw = Buffer.from('{"ruleId":"R1"}');
    const a = resultDigest(runSeed('sarif', ['a']), raw);
    expect(resultDigest(runSeed('sarif', ['a']), raw)).toBe(a);
    expect(resultDigest(runSeed('sarif', ['b']), raw)).not.toBe(a);
    expect(resultDigest(runSeed('sonarqube', ['a']), raw)).not.toBe(a);
  });

  it('reads a memo from COPY text, ignoring the uuid hyphens', () => {
    const memo = memoFromCopyText(
      'f1\t0123abcd-0000-4000-8000-00000000000a\nf2\t0123abcd-0000-4000-8000-00000000000b\n',
    );
    expect(memo.size).toBe(2);
    expect(memo.findingOf('0123abcd00004000800000000000000a')).toBe('f1');
    expect(memo.findingOf('0123abcd00004000800000000000000b')).toBe('f2');
    // Keys are the 32 digits a digest is computed as, never the hyphenated form.
    expect(memo.findingOf('0123abcd-0000-4000-8000-00000000000a')).toBeUndefined();
    expect(memo.findingOf('0123abcd00004000800000000000000c')).toBeUndefined();
  });
});

describe('readSarif with a memo of the product findings', () => {
  it('yields known results as re-sightings, in the same batches as without a memo', async () => {
    const memo = await memoOf(ORIGINAL);
    expect(memo.size).toBe(11);
    const plain = await read(ORIGINAL);
    const memoized = await read(ORIGINAL, memo);
    expect(memoized.map((b) => b.findings.length)).toEqual([0, 0, 0]);
    expect(memoized.map((b) => b.resighted.length)).toEqual(plain.map((b) => b.findings.length));
    const expected = plain.flatMap((b) => b.findings);
    const again = memoized.flatMap((b) => b.resighted);
    expect(again.map((r) => r.finding_id)).toEqual(expected.map((f) => f.identity));
    expect(again.map((r) => r.content_digest)).toEqual(expected.map((f) => f.content_digest));
    // Normalizing a re-sighting after all gives the finding normalizing it at once gives.
    expect(again.map((r) => r.normalize())).toEqual(expected);
  });

  it('still knows results when only the scanner version or the revision changed', async () => {
    const memo = await memoOf(ORIGINAL);
    const report = variant((log) => {
      log.runs[0].tool.driver.version = '9.9.9';
      log.runs[0].versionControlProvenance = [{ repositoryUri: 'r', revisionId: 'abc123' }];
    });
    const batches = await read(report, memo);
    expect(batches.flatMap((b) => b.findings)).toEqual([]);
    expect(batches.flatMap((b) => b.resighted)).toHaveLength(11);
    expect(batches[0].run).toMatchObject({ scanner_version: '9.9.9', revision: 'abc123' });
  });

  it('normalizes a result whose bytes changed, and the whole run when its context changed', async () => {
    const memo = await memoOf(ORIGINAL);
    const reworded = await read(
      variant((log) => {
        (log.runs[0].results[2].message as { text: string }).text += '!';
      }),
      memo,
    );
    expect(reworded.flatMap((b) => b.findings).map((f) => f.rule_id)).toEqual(['FF1016']);
    expect(reworded.flatMap((b) => b.resighted)).toHaveLength(10);

    const contexts: ((log: Log) => void)[] = [
      (log) => (log.runs[0].tool.driver.name = 'Renamed'),
      (log) => {
        const rule = log.runs[0].tool.driver.rules?.[0] as Record<string, unknown>;
        rule.defaultConfiguration = { level: 'error' };
      },
      (log) => {
        log.runs[0].invocations = [
          {
            executionSuccessful: true,
            ruleConfigurationOverrides: [
              { descriptor: { id: 'FF1013' }, configuration: { level: 'error' } },
            ],
          },
        ];
      },
    ];
    for (const change of contexts) {
      const batches = await read(variant(change), memo);
      expect(batches.flatMap((b) => b.resighted)).toEqual([]);
      expect(batches.flatMap((b) => b.findings)).toHaveLength(11);
    }
  });

  it('one-shot streams are not memoized (no second pass) but still digested', async () => {
    const memo = await memoOf(ORIGINAL);
    const batches = await collect(readSarif(oneShot(ORIGINAL, 50), {}, { memo: async () => memo }));
    expect(batches.flatMap((b) => b.resighted)).toEqual([]);
    expect(batches.flatMap((b) => b.findings).every((f) => f.content_digest)).toBe(true);
  });
});
