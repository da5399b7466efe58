import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FindingBatch, NormalizedFinding } from '../normalized-finding';

/** Sample reports (real scanner output and hand-written cases); see test/fixtures/README.md. */
export const FIXTURES = join(__dirname, '../../test/fixtures');

export function fixturePath(name: string): string {
  return join(FIXTURES, name);
}

/** Report shapes that must never regress (test/corpus/README.md). */
export const CORPUS = join(__dirname, '../../test/corpus');

export function corpusPath(name: string): string {
  return join(CORPUS, name);
}

export function fixture(name: string): Buffer {
  return readFileSync(fixturePath(name));
}

export async function collect(batches: AsyncIterable<FindingBatch>): Promise<FindingBatch[]> {
  const out: FindingBatch[] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

export async function findingsOf(
  batches: AsyncIterable<FindingBatch>,
): Promise<NormalizedFinding[]> {
  return (await collect(batches)).flatMap((b) => b.findings);
}

export async function* oneShot(data: Buffer, chunkSize: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < data.length; i += chunkSize) yield data.subarray(i, i + chunkSize);
}

/** Rejection of a promise, for asserting error codes and messages. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
