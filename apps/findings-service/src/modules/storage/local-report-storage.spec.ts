import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { LocalReportStorage } from './local-report-storage';
import { StoredObjectTooLargeError } from './report-storage';

describe('LocalReportStorage', () => {
  let dir: string;
  let storage: LocalReportStorage;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'report-storage-'));
    storage = new LocalReportStorage(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('stores a stream and reports its size', async () => {
    const result = await storage.write('a.sarif', Readable.from([Buffer.from('{"runs":[]}')]), 100);
    expect(result.sizeBytes).toBe(11);
    expect(await readFile(join(dir, 'a.sarif'), 'utf8')).toBe('{"runs":[]}');
    expect(await storage.exists('a.sarif')).toBe(true);
  });

  it('creates its directory 0700 and each stored file 0600', async () => {
    const nested = new LocalReportStorage(join(dir, 'reports'));
    await nested.write('c.sarif', Readable.from([Buffer.from('{}')]), 100);
    expect((await stat(join(dir, 'reports'))).mode & 0o777).toBe(0o700);
    expect((await stat(nested.localPath('c.sarif'))).mode & 0o777).toBe(0o600);
  });

  it('gives the local path of a stored object, and refuses keys outside the directory', async () => {
    await storage.write('b.sarif', Readable.from([Buffer.from('{}')]), 100);
    expect(await readFile(storage.localPath('b.sarif'), 'utf8')).toBe('{}');
    expect(() => storage.localPath('../b.sarif')).toThrow(/invalid storage key/);
  });

  it('stops at the ceiling and leaves no partial file', async () => {
    const chunks = Array.from({ length: 50 }, () => Buffer.alloc(1024, 'x'));
    await expect(storage.write('big.json', Readable.from(chunks), 10_000)).rejects.toBeInstanceOf(
      StoredObjectTooLargeError,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses keys that could leave the directory', async () => {
    await expect(storage.write('../x', Readable.from([]), 10)).rejects.toThrow(
      'invalid storage key',
    );
  });

  it('deletes idempotently', async () => {
    await storage.write('b.json', Readable.from([Buffer.from('{}')]), 10);
    await storage.delete('b.json');
    await storage.delete('b.json');
    expect(await storage.exists('b.json')).toBe(false);
  });

  it('lists its files with their modification time and size, nothing else', async () => {
    await storage.write('c.json', Readable.from([Buffer.from('{}')]), 10);
    const old = new Date('2020-01-02T03:04:05Z');
    await utimes(join(dir, 'c.json'), old, old);
    await writeFile(join(dir, '.hidden'), 'x');
    await mkdir(join(dir, 'sub'));
    const listed = [];
    for await (const object of storage.list()) listed.push(object);
    expect(listed).toEqual([{ key: 'c.json', modifiedAt: old, sizeBytes: 2 }]);
  });

  it('lists nothing before its directory exists', async () => {
    const listed = [];
    for await (const object of new LocalReportStorage(join(dir, 'absent')).list()) {
      listed.push(object);
    }
    expect(listed).toEqual([]);
  });
});
