import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TranspiledComponent } from './compile-threads';
import { TranspileCache, type TranspileCacheLog } from './transpile-cache';

const DIGEST_A = 'a'.repeat(64);
const DIGEST_B = 'b'.repeat(64);
const SECRET_GLUE = 'export function instantiate() { /* glue-marker-5f1e */ }';

function output(moduleBytes = 1000): TranspiledComponent {
  return {
    ok: true,
    glue: SECRET_GLUE,
    coreModules: [
      ['plugin.core.wasm', new Uint8Array(moduleBytes).fill(7)],
      ['plugin.core2.wasm', new Uint8Array([0, 97, 115, 109])],
    ],
    imports: ['findsvc:plugin/host@0.1.0'],
    exports: ['findsvc:plugin/enricher@0.1.0'],
    witImports: ['findsvc:plugin/host@0.1.0'],
    witExports: ['findsvc:plugin/enricher@0.1.0'],
  };
}

class Warnings implements TranspileCacheLog {
  readonly lines: { fields: Record<string, unknown>; message: string }[] = [];
  warn(fields: Record<string, unknown>, message: string): void {
    this.lines.push({ fields, message });
  }
}

describe('TranspileCache (what jco made, kept on disk between runner processes)', () => {
  let root: string;
  let dir: string;
  let log: Warnings;
  const open = (identity = 'jco-1', maxBytes = 64 * 1024 * 1024) =>
    TranspileCache.open({ directory: dir, maxBytes }, identity, log) as TranspileCache;
  const entries = async () => (await readdir(dir)).filter((n) => n.endsWith('.entry'));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'transpile-cache-'));
    dir = join(root, 'nested', 'cache');
    log = new Warnings();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('stores an entry that another process (a second cache on the same directory) reads back', async () => {
    await open().put(DIGEST_A, output());
    const second = open();
    expect(await second.get(DIGEST_A)).toEqual(output());
    expect(second.stats()).toEqual({ hits: 1, misses: 0, stored: 0, discarded: 0 });
    expect(await second.get(DIGEST_B)).toBeUndefined();
    expect(second.stats().misses).toBe(1);
    expect(log.lines).toEqual([]);
  });

  it('creates its directory 0700 and writes its entries 0600, with no temp file left', async () => {
    await open().put(DIGEST_A, output());
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const names = await readdir(dir);
    expect(names).toHaveLength(1);
    expect((await stat(join(dir, names[0]))).mode & 0o777).toBe(0o600);
  });

  it('does not read the entries of another transpiler (jco version or compile thread script)', async () => {
    await open('jco-1').put(DIGEST_A, output());
    expect(await open('jco-2').get(DIGEST_A)).toBeUndefined();
  });

  it.each([
    [
      'corrupted',
      (b: Buffer) => Buffer.concat([b.subarray(0, -3), Buffer.from([1, 2, 3])]),
      'integrity digest mismatch',
    ],
    ['truncated', (b: Buffer) => b.subarray(0, b.length - 100), 'integrity digest mismatch'],
    ['emptied', () => Buffer.alloc(0), 'not an entry of this format'],
  ])(
    'ignores a %s entry with a warning (no content logged) and removes it',
    async (_, damage, reason) => {
      const cache = open();
      await cache.put(DIGEST_A, output());
      const file = join(dir, cache.entryName(DIGEST_A));
      await writeFile(file, damage(await readFile(file)));

      expect(await cache.get(DIGEST_A)).toBeUndefined();
      expect(log.lines).toEqual([
        {
          fields: { entry: cache.entryName(DIGEST_A), reason },
          message: 'transpile cache entry ignored',
        },
      ]);
      expect(JSON.stringify(log.lines)).not.toContain('glue-marker');
      expect(await entries()).toEqual([]);
      expect(cache.stats()).toMatchObject({ hits: 0, misses: 1, discarded: 1 });
    },
  );

  it('ignores a foreign entry: a valid entry of another component put in its place', async () => {
    const cache = open();
    await cache.put(DIGEST_B, output());
    await writeFile(
      join(dir, cache.entryName(DIGEST_A)),
      await readFile(join(dir, cache.entryName(DIGEST_B))),
    );
    expect(await cache.get(DIGEST_A)).toBeUndefined();
    expect(log.lines[0].fields['reason']).toBe('written for another key');
    expect(await cache.get(DIGEST_B)).toEqual(output());
  });

  it('keeps the total under its bound by dropping the least recently used entries', async () => {
    const cache = open('jco-1', 3_500); // two entries of ~1.5 KB fit, not three
    await cache.put(DIGEST_A, output(1000));
    const old = new Date(Date.now() - 60_000);
    await utimes(join(dir, cache.entryName(DIGEST_A)), old, old);
    await cache.put(DIGEST_B, output(1000));
    expect(await entries()).toHaveLength(2);
    // A read marks A as used: the next store drops B, the oldest now.
    await utimes(join(dir, cache.entryName(DIGEST_B)), old, old);
    expect(await cache.get(DIGEST_A)).toBeDefined();
    await cache.put('c'.repeat(64), output(1000));
    expect((await entries()).sort()).toEqual(
      [cache.entryName(DIGEST_A), cache.entryName('c'.repeat(64))].sort(),
    );
  });

  it('is off, with a warning, when its directory is open to others or not a directory', async () => {
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o755);
    expect(TranspileCache.open({ directory: dir, maxBytes: 1 }, 'jco-1', log)).toBeUndefined();
    const file = join(root, 'file');
    await writeFile(file, '');
    expect(TranspileCache.open({ directory: file, maxBytes: 1 }, 'jco-1', log)).toBeUndefined();
    expect(log.lines.map((l) => [l.message, l.fields['reason']])).toEqual([
      [
        'the transpile cache is off',
        'the directory is open to group or others (mode 0755; 0700 needed)',
      ],
      ['the transpile cache is off', 'EEXIST'],
    ]);
  });

  it('does not fail a load when the entry cannot be written: a warning, no temp file left', async () => {
    const cache = open();
    // A non-empty directory where the entry goes: the rename fails (for root too).
    mkdirSync(join(dir, cache.entryName(DIGEST_A), 'x'), { recursive: true });
    await cache.put(DIGEST_A, output());
    expect(log.lines).toEqual([
      {
        fields: { reason: expect.stringMatching(/^E[A-Z]+$/) },
        message: 'transpile cache entry not stored',
      },
    ]);
    expect(await readdir(dir)).toEqual([cache.entryName(DIGEST_A)]);
    expect(await cache.get(DIGEST_A)).toBeUndefined();
  });
});
