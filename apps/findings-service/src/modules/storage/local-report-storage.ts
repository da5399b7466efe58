import { mkdir, open, opendir, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileReportSource, ReportSource } from '@platform/report-parsing';
import { ReportStorage, StoredObject, StoredObjectTooLargeError } from './report-storage';

/** Counts bytes and fails the stream as soon as the ceiling is passed. */
class ByteCeiling extends Transform {
  bytes = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) done(new StoredObjectTooLargeError(this.maxBytes));
    else done(null, chunk);
  }
}

/** Uploaded reports may hold secrets found by scanners: readable by the service's user only. */
export const REPORT_FILE_MODE = 0o600;
export const REPORT_DIRECTORY_MODE = 0o700;

/** Report files in a local directory (REPORT_STORAGE_DIR), one file per key. */
export class LocalReportStorage implements ReportStorage {
  private readonly root: string;

  constructor(directory: string) {
    this.root = resolve(directory);
  }

  async write(key: string, content: Readable, maxBytes: number): Promise<{ sizeBytes: number }> {
    const path = this.pathOf(key);
    await mkdir(this.root, { recursive: true, mode: REPORT_DIRECTORY_MODE });
    const ceiling = new ByteCeiling(maxBytes);
    // Opened before the copy starts: a pipeline that fails on an early chunk must not race the
    // open (which would create the file after the removal below).
    const handle = await open(path, 'wx', REPORT_FILE_MODE);
    try {
      await pipeline(content, ceiling, handle.createWriteStream());
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(path, { force: true });
      throw error;
    }
    return { sizeBytes: ceiling.bytes };
  }

  source(key: string): ReportSource {
    return fileReportSource(this.pathOf(key));
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /**
   * The regular files of the directory whose names are valid keys (nothing when the directory
   * does not exist yet); a file removed while listing is skipped.
   */
  async *list(): AsyncIterable<StoredObject> {
    let directory;
    try {
      directory = await opendir(this.root);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for await (const entry of directory) {
      if (!entry.isFile() || !isValidKey(entry.name)) continue;
      try {
        const info = await stat(join(this.root, entry.name));
        yield { key: entry.name, modifiedAt: info.mtime, sizeBytes: info.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }

  private pathOf(key: string): string {
    if (!isValidKey(key)) {
      throw new Error(`invalid storage key "${key}"`);
    }
    const path = join(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`invalid storage key "${key}"`);
    return path;
  }
}

function isValidKey(key: string): boolean {
  return /^[A-Za-z0-9._-]+$/.test(key) && !key.startsWith('.');
}
