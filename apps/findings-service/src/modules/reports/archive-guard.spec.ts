import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { rejectArchives } from './archive-guard';

async function through(chunks: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(rejectArchives(Readable.from(chunks))),
    new Writable({
      write(chunk: Buffer, _e, done) {
        out.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(out);
}

describe('rejectArchives', () => {
  it('refuses a tar whose signature sits at offset 257, even across chunks', async () => {
    const tar = Buffer.alloc(1024);
    tar.write('ustar', 257);
    await expect(through([tar.subarray(0, 100), tar.subarray(100)])).rejects.toMatchObject({
      code: 'report_archive_refused',
    });
  });

  it('passes JSON through unchanged, even split into tiny chunks', async () => {
    const json = Buffer.from(JSON.stringify({ runs: [{ results: new Array(100).fill({}) }] }));
    const chunks = Array.from({ length: Math.ceil(json.length / 7) }, (_, i) =>
      json.subarray(i * 7, i * 7 + 7),
    );
    expect((await through(chunks)).equals(json)).toBe(true);
    expect((await through([Buffer.from('{}')])).toString()).toBe('{}');
  });

  it('fails the stream on an archive', async () => {
    await expect(through([gzipSync('x'.repeat(1000))])).rejects.toMatchObject({
      code: 'report_archive_refused',
    });
  });
});
