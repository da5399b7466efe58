import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip, type Gunzip } from 'node:zlib';
import { LogSnapshotsError } from './log-snapshots.errors';

export interface UploadLimits {
  maxBytes: number;
  maxInflatedBytes: number;
}

export interface WrittenUpload {
  sizeBytes: number;
  sha256: string;
}

/**
 * Copies a gzip upload to `file` while it streams in: counts and hashes the bytes (413
 * `log_snapshot_too_large` past `maxBytes`) and inflates them alongside into a counter that
 * keeps nothing (413 `log_snapshot_inflated_too_large` past `maxInflatedBytes`: a zip bomb
 * stops there), checking the inflated content is UTF-8 text without NUL bytes (415
 * `log_snapshot_not_text`). Nothing is held in memory beyond one chunk. The source is never
 * destroyed (the HTTP layer discards what is left, so the client still gets the answer).
 */
export async function writeGzipUpload(
  source: Readable,
  file: FileHandle,
  limits: UploadLimits,
): Promise<WrittenUpload> {
  const gunzip = createGunzip();
  const inspected = inspectInflated(gunzip, limits.maxInflatedBytes);
  inspected.catch(() => undefined);
  const hash = createHash('sha256');
  let sizeBytes = 0;
  try {
    const chunks = source.iterator({ destroyOnReturn: false });
    for (;;) {
      const next = await nextChunk(chunks);
      if (next === null) break;
      const bytes = next;
      sizeBytes += bytes.length;
      if (sizeBytes > limits.maxBytes) throw new LogSnapshotsError('log_snapshot_too_large');
      hash.update(bytes);
      await file.write(bytes);
      await feed(gunzip, bytes, inspected);
    }
    if (sizeBytes === 0) throw new LogSnapshotsError('log_snapshot_empty');
    gunzip.end();
    const inflated = await inspected;
    if (inflated === 0) throw new LogSnapshotsError('log_snapshot_empty');
  } finally {
    if (!gunzip.destroyed) gunzip.destroy();
  }
  return { sizeBytes, sha256: hash.digest('hex') };
}

/** The next chunk; a body that breaks off (client gone, socket error) is an incomplete gzip. */
async function nextChunk(chunks: AsyncIterator<unknown>): Promise<Buffer | null> {
  try {
    const next = await chunks.next();
    return next.done ? null : (next.value as Buffer);
  } catch {
    throw new LogSnapshotsError('log_snapshot_corrupt');
  }
}

async function feed(gunzip: Gunzip, bytes: Buffer, inspected: Promise<number>): Promise<void> {
  if (gunzip.destroyed) {
    await inspected;
    throw new LogSnapshotsError('log_snapshot_corrupt');
  }
  if (!gunzip.write(bytes)) {
    try {
      // `inspected` rejects first when the inflated side stops (bomb, not text, corrupt)
      await Promise.race([once(gunzip, 'drain'), inspected]);
    } catch {
      await inspected;
      throw new LogSnapshotsError('log_snapshot_corrupt');
    }
  }
}

/** Inflated byte count; rejects with the snapshot error that applies. */
async function inspectInflated(gunzip: Gunzip, maxInflatedBytes: number): Promise<number> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let total = 0;
  try {
    for await (const chunk of gunzip) {
      const bytes = chunk as Buffer;
      total += bytes.length;
      if (total > maxInflatedBytes) throw new LogSnapshotsError('log_snapshot_inflated_too_large');
      if (bytes.includes(0)) throw new LogSnapshotsError('log_snapshot_not_text');
      decoder.decode(bytes, { stream: true });
    }
    decoder.decode();
  } catch (error) {
    gunzip.destroy();
    if (error instanceof LogSnapshotsError) throw error;
    if ((error as { code?: unknown }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      throw new LogSnapshotsError('log_snapshot_not_text');
    }
    throw new LogSnapshotsError('log_snapshot_corrupt');
  }
  return total;
}
