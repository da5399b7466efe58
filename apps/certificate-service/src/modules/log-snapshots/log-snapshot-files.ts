import { constants, createReadStream, type ReadStream } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { writeGzipUpload, type WrittenUpload } from './snapshot-upload';

const KEY_PATTERN = /^[0-9a-f-]{36}\.log\.gz(\.part)?$/;

/**
 * The snapshot files under `CERTSVC_LOG_SNAPSHOT_DIR`: directory 0700 (refused when it is a
 * symlink or another user's), files 0600 named after the row id only. Written as `.part`
 * and renamed once complete.
 */
@Injectable()
export class LogSnapshotFiles {
  private ready: Promise<void> | undefined;

  constructor(@Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig) {}

  static keyOf(id: string): string {
    return `${id}.log.gz`;
  }

  get dir(): string {
    return this.config.logSnapshots.dir;
  }

  /** Streams the upload into the file of `id`; removes any partial file on failure. */
  async write(id: string, source: Readable): Promise<WrittenUpload & { storageKey: string }> {
    await this.ensureDir();
    const storageKey = LogSnapshotFiles.keyOf(id);
    const part = join(this.dir, `${storageKey}.part`);
    const file = await open(part, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      const written = await writeGzipUpload(source, file, this.config.logSnapshots);
      await file.sync();
      await file.close();
      await rename(part, join(this.dir, storageKey));
      return { ...written, storageKey };
    } catch (error) {
      await file.close().catch(() => undefined);
      await unlink(part).catch(() => undefined);
      throw error;
    }
  }

  /** A read stream of the stored file, or null when it is gone. */
  async read(storageKey: string): Promise<ReadStream | null> {
    if (!KEY_PATTERN.test(storageKey)) return null;
    const path = join(this.dir, storageKey);
    try {
      await stat(path);
    } catch {
      return null;
    }
    return createReadStream(path);
  }

  async remove(storageKey: string): Promise<void> {
    if (!KEY_PATTERN.test(storageKey)) return;
    await unlink(join(this.dir, storageKey)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  /** Removes snapshot files (and abandoned `.part` files) last modified before `cutoff`. */
  async removeOlderThan(cutoff: Date): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names.filter((n) => KEY_PATTERN.test(n))) {
      const info = await lstat(join(this.dir, name)).catch(() => null);
      if (info?.isFile() && info.mtime < cutoff) {
        await this.remove(name);
        removed += 1;
      }
    }
    return removed;
  }

  private ensureDir(): Promise<void> {
    this.ready ??= this.prepareDir().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async prepareDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const info = await lstat(this.dir);
    if (!info.isDirectory()) throw new Error('CERTSVC_LOG_SNAPSHOT_DIR is not a directory');
    if (typeof process.getuid === 'function' && info.uid !== process.getuid()) {
      throw new Error('CERTSVC_LOG_SNAPSHOT_DIR belongs to another user');
    }
    await chmod(this.dir, 0o700);
  }
}

/**
 * `application/gzip` bodies reach the handler as the raw stream (no buffering, no parser
 * limit): only `POST /requests/{id}/logs` declares the type, which counts and caps the bytes
 * while it copies them (the media-type gate refuses the type on every other route).
 */
export function installLogSnapshotParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('application/gzip', (_request, payload, done) => {
    done(null, payload);
  });
}
