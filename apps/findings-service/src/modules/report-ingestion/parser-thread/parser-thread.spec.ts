import { once, type EventEmitter } from 'node:events';
import { waitFor } from '@platform/testing';
import { stagedBatch } from '../../findings/bulk-write/finding-row';
import {
  bufferReportSource,
  readReport,
  ReportParseError,
  ReportSource,
} from '@platform/report-parsing';
import { collect, fixture, fixturePath, rejectionOf } from '@platform/report-parsing/testing';
import { EncodedBatch, ParserThreadPool } from './parser-thread';
import { ParserThreadInput } from './parser-thread.protocol';
import { StoredReportReadError } from './stored-report-read-error';

const INPUT: ParserThreadInput = {
  format: undefined,
  defaults: {},
  batchSize: 3,
  skipBelow: 0,
  ahead: 2,
  memo: false,
};

/** COPY lines without the generated id (first column). */
function linesOf(copy: Buffer): string[] {
  return copy
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(line.indexOf('\t') + 1));
}

/**
 * A report's batches from `pool`, released when the consumer is done (cleanly: read to the end
 * or a parse error; abandoned otherwise), as ReportIngestionService drives a run.
 */
async function* runOn(
  pool: ParserThreadPool,
  source: ReportSource,
  input: ParserThreadInput,
): AsyncGenerator<EncodedBatch> {
  const run = pool.acquire(source, input);
  if (input.memo) run.provideMemo(null);
  let clean = false;
  try {
    yield* run.batches();
    clean = true;
  } catch (error) {
    clean = error instanceof ReportParseError;
    throw error;
  } finally {
    await run.release(clean);
  }
}

async function drain(batches: AsyncIterable<EncodedBatch>): Promise<EncodedBatch[]> {
  const out: EncodedBatch[] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

/** A source that counts the chunks handed out (the thread's reads). */
function counted(data: Buffer, chunkSize: number): { source: ReportSource; reads: () => number } {
  let reads = 0;
  const inner = bufferReportSource(data, chunkSize);
  return {
    source: {
      reopenable: true,
      open: async function* () {
        for await (const chunk of inner.open()) {
          reads += 1;
          yield chunk;
        }
      },
    },
    reads: () => reads,
  };
}

describe('ParserThreadPool', () => {
  let pool: ParserThreadPool;

  beforeAll(() => {
    pool = new ParserThreadPool();
  });

  afterAll(async () => {
    await pool.close();
  });

  it('encodes the same batches on the thread as in process (small chunks)', async () => {
    const sarif = fixture('sarif-all-cases.sarif');
    const inProcess = await collect(
      readReport(bufferReportSource(sarif), undefined, {}, { batchSize: 3 }),
    );
    const threaded = await drain(runOn(pool, bufferReportSource(sarif, 97), INPUT));

    expect(threaded.map((b) => b.index)).toEqual(inProcess.map((_, i) => i));
    threaded.forEach((batch, i) => {
      const expected = stagedBatch(inProcess[i].findings);
      expect(batch.rows).toBe(expected.rows);
      expect(batch.results).toBe(inProcess[i].findings.length);
      expect(batch.scanner).toBe(inProcess[i].run.scanner);
      expect(linesOf(batch.copy)).toEqual(linesOf(expected.data));
    });
  }, 30_000);

  it('reads a local file itself when given its path (the source is not used)', async () => {
    const unused: ReportSource = {
      reopenable: true,
      open: () => {
        throw new Error('the source must not be read');
      },
    };
    const fromPath = await drain(
      runOn(pool, unused, { ...INPUT, path: fixturePath('sarif-all-cases.sarif') }),
    );
    const relayed = await drain(
      runOn(pool, bufferReportSource(fixture('sarif-all-cases.sarif')), INPUT),
    );

    expect(fromPath.map((b) => linesOf(b.copy))).toEqual(relayed.map((b) => linesOf(b.copy)));
  }, 30_000);

  it('does not encode or send the batches below the watermark', async () => {
    const sarif = fixture('sarif-all-cases.sarif');
    const all = await drain(runOn(pool, bufferReportSource(sarif), INPUT));
    const resumed = await drain(runOn(pool, bufferReportSource(sarif), { ...INPUT, skipBelow: 2 }));

    expect(all.length).toBeGreaterThan(2);
    expect(resumed.map((b) => b.index)).toEqual(all.slice(2).map((b) => b.index));
    expect(resumed.map((b) => linesOf(b.copy))).toEqual(all.slice(2).map((b) => linesOf(b.copy)));
  }, 30_000);

  it('stays at most `ahead` batches ahead of the consumer', async () => {
    const results = Array.from({ length: 60 }, (_, i) => ({
      ruleId: `R${i}`,
      message: { text: `finding ${i}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: `src/f${i}.c` } } }],
    }));
    const sarif = Buffer.from(
      JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 't' } }, results }] }),
    );
    const { source, reads } = counted(sarif, 64);
    const batches = runOn(pool, source, { ...INPUT, format: 'sarif', batchSize: 1, ahead: 1 });
    const first = await batches.next();
    expect(first.done).toBe(false);
    // Waiting for credit, not reading on: the read count stops moving (however slow the box).
    let previous = -1;
    const whilePaused = await waitFor(
      () => {
        const now = reads();
        const still = now === previous;
        previous = now;
        if (!still) throw new Error(`the thread is still reading (${now} reads)`);
        return now;
      },
      { intervalMs: 300, what: 'the parser thread to stop reading' },
    );
    // Two passes over ~6 KB in 64-byte chunks: the whole file would be ~200 reads.
    expect(whilePaused).toBeLessThan(Math.ceil(sarif.length / 64) * 2);
    const rest = await drain({ [Symbol.asyncIterator]: () => batches });
    expect(rest).toHaveLength(59);
  }, 30_000);

  it('rethrows a parse error with its code and offset, and the thread serves the next report', async () => {
    const error = await rejectionOf(
      drain(runOn(pool, bufferReportSource('{"version": "2.1.0", "runs": [}'), INPUT)),
    );

    expect(error).toBeInstanceOf(ReportParseError);
    expect(error).toMatchObject({ code: 'report_malformed', details: { offset: 30 } });
    const next = await drain(
      runOn(pool, bufferReportSource(fixture('sarif-all-cases.sarif')), INPUT),
    );
    expect(next.length).toBeGreaterThan(0);
  }, 30_000);

  it('carries the skipped results and ignored values of each batch like the in-process reader', async () => {
    const results = Array.from({ length: 9 }, (_, i) => ({
      ruleId: 'R',
      message: { text: `finding ${i}` },
      ...(i % 3 === 1 ? { level: 'fatal' } : {}),
      ...(i === 8 ? { locations: [{ physicalLocation: { region: { startLine: 0 } } }] } : {}),
    }));
    const sarif = Buffer.from(
      JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 't' } }, results }] }),
    );
    const inProcess = await collect(
      readReport(bufferReportSource(sarif), undefined, {}, { batchSize: 3 }),
    );
    const threaded = await drain(runOn(pool, bufferReportSource(sarif), INPUT));
    const warnings = (b: { skipped: object; ignored: object }) => [b.skipped, b.ignored];
    expect(threaded.map(warnings)).toEqual(inProcess.map(warnings));
    expect(threaded.map(warnings)).toEqual([
      [{}, { result_level_ignored: 1 }],
      [{}, { result_level_ignored: 1 }],
      [{ result_region_invalid: 1 }, { result_level_ignored: 1 }],
    ]);
  }, 30_000);

  it('hands over every run’s coverage once, with its results not stored, also those of batches below the watermark', async () => {
    const bad = {
      ruleId: 'R',
      message: { text: 'x' },
      locations: [{ physicalLocation: { region: { startLine: 0 } } }],
    };
    const ok = (i: number) => ({ ruleId: 'R', message: { text: `finding ${i}` } });
    const sarif = Buffer.from(
      JSON.stringify({
        version: '2.1.0',
        runs: [
          {
            tool: { driver: { name: 'first' } },
            artifacts: [
              { location: { uri: 'src/a.c' } },
              { location: { uri: 'tcp://Db.Local:5432' } },
            ],
            invocations: [
              {
                executionSuccessful: false,
                toolExecutionNotifications: [
                  {
                    level: 'error',
                    locations: [{ physicalLocation: { artifactLocation: { uri: 'src/b.c' } } }],
                  },
                ],
              },
            ],
            results: [bad, ok(1), ok(2), ok(3), bad, ok(4)],
          },
          {
            tool: { driver: { name: 'clean run' } },
            artifacts: [{ location: { uri: 'x.py' } }],
            results: [],
          },
        ],
      }),
    );
    const run = pool.acquire(bufferReportSource(sarif), { ...INPUT, skipBelow: 1 });
    const batches = await drain(run.batches());
    const coverage = run.coverage();
    await run.release(true);
    expect(batches.map((b) => b.index)).toEqual([1]);
    expect(coverage).toEqual([
      {
        scanner: 'first',
        incomplete: true,
        files: ['src/a.c'],
        failed_files: ['src/b.c'],
        hosts: ['db.local'],
        skipped: 2,
      },
      {
        scanner: 'clean run',
        incomplete: false,
        files: ['x.py'],
        failed_files: [],
        hosts: [],
        skipped: 0,
      },
    ]);
  }, 30_000);

  it('fails a report whose local file is gone with a read error (not a parse error)', async () => {
    const unused: ReportSource = { reopenable: true, open: () => [] as never };
    const error = await rejectionOf(
      drain(runOn(pool, unused, { ...INPUT, path: '/nonexistent/report.sarif' })),
    );
    expect(error).toBeInstanceOf(StoredReportReadError);
    expect(error).toMatchObject({ errno: 'ENOENT' });
  }, 30_000);

  it('terminates a thread abandoned mid-report and starts a fresh one for the next', async () => {
    const sarif = fixture('sarif-all-cases.sarif');
    for await (const batch of runOn(pool, bufferReportSource(sarif), INPUT)) {
      expect(batch.index).toBe(0);
      break;
    }
    const next = await drain(runOn(pool, bufferReportSource(sarif), INPUT));
    expect(next.map((b) => b.index)).toEqual(next.map((_, i) => i));
  }, 30_000);

  it('never hands out a parked thread that died', async () => {
    const own = new ParserThreadPool();
    await drain(runOn(own, bufferReportSource(fixture('sarif-all-cases.sarif')), INPUT));
    const parked = (own as unknown as { idle: { terminate(): Promise<number> }[] }).idle;
    expect(parked).toHaveLength(1);
    const exited = once(parked[0] as unknown as EventEmitter, 'exit');
    await parked[0].terminate();
    await exited; // the pool's own `exit` listener was registered first, at spawn

    expect(parked).toHaveLength(0);
    const next = await drain(
      runOn(own, bufferReportSource(fixture('sarif-all-cases.sarif')), INPUT),
    );
    expect(next.length).toBeGreaterThan(0);
    await own.close();
  }, 30_000);

  it('still parses a report that starts after close() (its thread is not parked)', async () => {
    const closing = new ParserThreadPool();
    await drain(runOn(closing, bufferReportSource(fixture('sarif-all-cases.sarif')), INPUT));
    await closing.close();
    const late = await drain(
      runOn(closing, bufferReportSource(fixture('sarif-all-cases.sarif')), INPUT),
    );
    expect(late.length).toBeGreaterThan(0);
  }, 30_000);

  it('leaves the bytes a source yields intact (pooled or owned buffers are copied)', async () => {
    const neighbour = Buffer.from('neighbour in the pool');
    const pooled = Buffer.from(
      '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[]}]}',
    );
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    const owned = fixture('sarif-all-cases.sarif');
    const size = owned.length;
    await drain(runOn(pool, bufferReportSource(pooled), INPUT));
    await drain(runOn(pool, bufferReportSource(owned), INPUT));

    expect(neighbour.toString()).toBe('neighbour in the pool');
    expect(pooled.toString('utf8')).toContain('"results":[]');
    expect(owned.length).toBe(size);
  }, 30_000);

  it('sends known results as re-sightings and normalizes them on request after the report ended', async () => {
    const sarif = fixture('flawfinder-vulnerable.sarif');
    const inProcess = (
      await collect(readReport(bufferReportSource(sarif), 'sarif', {}, { batchSize: 4 }))
    ).flatMap((b) => b.findings);
    // Finding ids as the memo would hold them; result 3 is unknown (a new finding).
    const known = inProcess.filter((_, i) => i !== 3);
    const memo = known
      .map(
        (f, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}\t${f.content_digest}\n`,
      )
      .join('');
    const ids = known.map((_, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`);

    const run = pool.acquire(bufferReportSource(sarif), {
      ...INPUT,
      format: 'sarif',
      batchSize: 4,
      memo: true,
    });
    run.provideMemo(Buffer.from(memo));
    const batches = await drain(run.batches());
    expect(batches.map((b) => b.results)).toEqual([4, 4, 3]);
    expect(batches.map((b) => b.rows)).toEqual([1, 0, 0]);
    expect(linesOf(batches[0].copy)).toEqual(linesOf(stagedBatch([inProcess[3]]).data));
    const lines = batches.flatMap((b) =>
      (b.resighted?.data.toString('utf8') ?? '').split('\n').filter(Boolean),
    );
    expect(lines).toEqual(known.map((f, i) => `${ids[i]}\t${f.content_digest}`));
    expect(batches.map((b) => b.resighted?.rows ?? 0)).toEqual([3, 4, 3]);

    // The last batch may still be written after the thread sent `done`.
    const resolved = await run.resolve(2, [ids[8], ids[9]]);
    expect(resolved.rows).toBe(2);
    expect(linesOf(resolved.data)).toEqual(linesOf(stagedBatch(known.slice(8, 10)).data));
    await run.release(true);
    await expect(run.resolve(2, [ids[8]])).rejects.toThrow(/released/);
  }, 30_000);

  it('parses every result when the memo comes back empty', async () => {
    const sarif = fixture('flawfinder-vulnerable.sarif');
    const run = pool.acquire(bufferReportSource(sarif), { ...INPUT, format: 'sarif', memo: true });
    setTimeout(() => run.provideMemo(null), 50);
    const batches = await drain(run.batches());
    await run.release(true);
    expect(batches.reduce((n, b) => n + b.rows, 0)).toBe(11);
    expect(batches.every((b) => b.resighted === undefined)).toBe(true);
  }, 30_000);

  it('terminates a thread released mid-report even when the caller stopped cleanly', async () => {
    const own = new ParserThreadPool();
    const sarif = fixture('sarif-all-cases.sarif');
    const run = own.acquire(bufferReportSource(sarif), INPUT);
    for await (const batch of run.batches()) {
      expect(batch.index).toBe(0);
      break;
    }
    await run.release(true);
    expect((own as unknown as { idle: unknown[] }).idle).toHaveLength(0);
    const next = await drain(runOn(own, bufferReportSource(sarif), INPUT));
    expect(next.map((b) => b.index)).toEqual(next.map((_, i) => i));
    expect((own as unknown as { idle: unknown[] }).idle).toHaveLength(1);
    await own.close();
  }, 30_000);
});
