import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { writeGzipUpload } from './snapshot-upload';

const MIB = 1024 * 1024;
const DEFAULTS = { maxBytes: 10 * MIB, maxInflatedBytes: 100 * MIB };

/** A gzip of `mib` MiB of 'A' made chunk by chunk (never held inflated). */
async function bomb(mib: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const block = Buffer.alloc(MIB, 'A');
  for (let i = 0; i < mib; i += 1) {
    if (!gzip.write(block)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}

/** The body as the network would deliver it: 16 KiB chunks. */
function chunked(body: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < body.length; i += 16 * 1024) chunks.push(body.subarray(i, i + 16 * 1024));
  return Readable.from(chunks);
}

describe('writeGzipUpload', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'snapshot-upload-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function write(name: string, body: Buffer, limits = DEFAULTS) {
    const file = await open(join(dir, name), 'wx', 0o600);
    try {
      return await writeGzipUpload(chunked(body), file, limits);
    } finally {
      await file.close();
    }
  }

  it('copies the bytes as sent, with their size and SHA-256', async () => {
    const body = gzipSync(Buffer.from('{"msg":"é ok"}\n'.repeat(5000)));
    const written = await write('ok.gz', body);
    expect(written.sizeBytes).toBe(body.length);
    expect(Buffer.compare(readFileSync(join(dir, 'ok.gz')), body)).toBe(0);
    expect(written.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stops a 150 MiB zip bomb under the default limits (its gzip is far below 10 MiB)', async () => {
    const body = await bomb(150);
    expect(body.length).toBeLessThan(DEFAULTS.maxBytes);
    await expect(write('bomb.gz', body)).rejects.toMatchObject({
      code: 'log_snapshot_inflated_too_large',
    });
  });

  it('refuses a multi-byte character cut at the end as not text', async () => {
    await expect(write('cut.gz', gzipSync(Buffer.from([0x61, 0xe2, 0x82])))).rejects.toMatchObject({
      code: 'log_snapshot_not_text',
    });
  });

  it('stops at the first chunk over maxBytes when no length was declared', async () => {
    const body = gzipSync(
      Buffer.from(Array.from({ length: 40000 }, (_, i) => `${i * 7919}`).join()),
    );
    await expect(
      write('big.gz', body, { maxBytes: 1024, maxInflatedBytes: DEFAULTS.maxInflatedBytes }),
    ).rejects.toMatchObject({ code: 'log_snapshot_too_large' });
  });
});
