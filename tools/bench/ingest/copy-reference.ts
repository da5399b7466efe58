/**
 * The in-run reference of the ingestion bench: a plain `COPY` of the rows an ingest stored,
 * into an unindexed temporary table of the same shape (`LIKE findings`: columns only, no
 * index, constraint or trigger), on the same server, machine and run. Ingestion findings/s
 * divided by these rows/s compares across machines; either figure alone does not.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

export interface CopyReference {
  rows: number;
  megabytes: number;
  /** Median of the runs. */
  rowsPerSecond: number;
  runsMs: number[];
}

async function storedRows(client: Client, productId: string): Promise<Buffer> {
  if (!/^[0-9a-f-]{36}$/.test(productId)) throw new Error(`not a product id: ${productId}`);
  const chunks: Buffer[] = [];
  await pipeline(
    client.query(
      copyTo(`COPY (SELECT * FROM findings WHERE product_id = '${productId}') TO STDOUT`),
    ),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Times `runs` plain COPYs of the findings of `productId` (read back as COPY text first). */
export async function plainCopyReference(
  databaseUrl: string,
  productId: string,
  runs = 3,
): Promise<CopyReference> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const data = await storedRows(client, productId);
    // Text COPY escapes newlines inside values: one newline byte per row.
    let rows = 0;
    for (let at = data.indexOf(10); at >= 0; at = data.indexOf(10, at + 1)) rows += 1;
    await client.query('CREATE TEMP TABLE copy_reference (LIKE findings)');
    const runsMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      await client.query('TRUNCATE copy_reference');
      const started = performance.now();
      await pipeline(
        Readable.from([data]),
        client.query(copyFrom('COPY copy_reference FROM STDIN')),
      );
      runsMs.push(performance.now() - started);
    }
    return {
      rows,
      megabytes: data.length / 1e6,
      rowsPerSecond: (rows / median(runsMs)) * 1000,
      runsMs,
    };
  } finally {
    await client.end();
  }
}
