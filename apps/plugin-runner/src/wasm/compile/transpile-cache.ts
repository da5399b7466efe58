import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TranspiledComponent } from './compile-threads';

/** PLUGIN_RUNNER_TRANSPILE_CACHE_DIR / _MAX_MB (docs/plugins/limits.md). */
export interface TranspileCacheSettings {
  /** Absolute directory of the entries; undefined: no disk cache. */
  directory: string | undefined;
  /** Bound of the entries' total size; the least recently used go first. */
  maxBytes: number;
}

export const DEFAULT_TRANSPILE_CACHE_DIR = '/var/tmp/secplatform/transpile-cache';
export const DEFAULT_TRANSPILE_CACHE_MAX_MB = 512;

/** Where warnings go (the runner's pino logger fits). */
export interface TranspileCacheLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Counts since the cache was opened (tests, benchmarks). */
export interface TranspileCacheStats {
  hits: number;
  misses: number;
  stored: number;
  /** Entries found unreadable, truncated, corrupted or written for another key: removed. */
  discarded: number;
}

const MAGIC = Buffer.from('PRTCv001');
const DIGEST_BYTES = 32;
const ENTRY_SUFFIX = '.entry';
/** A temp file older than this is left over by a process that died while writing it. */
const STALE_TEMP_MS = 10 * 60_000;

interface EntryHeader {
  key: string;
  glue: string;
  imports: string[];
  exports: string[];
  witImports: string[];
  witExports: string[];
  modules: [string, number][];
}

/**
 * What jco made for a component, kept on disk between runner processes (a restart, the next
 * test file's runner) — docs/plugins/limits.md "Load". An entry is the compile thread's answer
 * for one component: the host-generated glue and the raw core modules, before the runner caps
 * their memory and checks imports and exports (those run on every load, from the cache or
 * not). The key hashes the component's verified SHA-256 with the transpiler's identity (jco's
 * version, the compile thread's script: transpile options and world parsing). Only a
 * component the runner accepted is stored.
 *
 * One file per entry: magic, SHA-256 of the rest, then the entry; written to a temp file
 * (0600) and renamed into place in a 0700 directory the runner owns. An entry that does not
 * verify (truncated, corrupted, another key's) is removed with a warning and the component is
 * transpiled again: the cache can only make a load faster, never fail it.
 */
export class TranspileCache {
  private readonly counts: TranspileCacheStats = { hits: 0, misses: 0, stored: 0, discarded: 0 };

  private constructor(
    private readonly directory: string,
    private readonly maxBytes: number,
    private readonly identity: string,
    private readonly log: TranspileCacheLog,
  ) {}

  /**
   * Opens (creating it 0700) the directory; undefined, with a warning, when it cannot be used:
   * not creatable, not a directory, not owned by this user or open to group or others.
   */
  static open(
    settings: TranspileCacheSettings,
    identity: string,
    log: TranspileCacheLog,
  ): TranspileCache | undefined {
    const { directory } = settings;
    if (directory === undefined) return undefined;
    const off = (reason: string) => {
      log.warn({ directory, reason }, 'the transpile cache is off');
      return undefined;
    };
    try {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      const info = statSync(directory);
      if (!info.isDirectory()) return off('not a directory');
      if (process.getuid && info.uid !== process.getuid()) {
        return off('the directory belongs to another user');
      }
      if ((info.mode & 0o077) !== 0) {
        return off(
          `the directory is open to group or others (mode ${modeOf(info.mode)}; 0700 needed)`,
        );
      }
    } catch (error) {
      return off((error as NodeJS.ErrnoException).code ?? 'not usable');
    }
    return new TranspileCache(directory, settings.maxBytes, identity, log);
  }

  stats(): TranspileCacheStats {
    return { ...this.counts };
  }

  /** The entry's file name for a component's verified SHA-256. */
  entryName(digest: string): string {
    return `${this.keyOf(digest)}${ENTRY_SUFFIX}`;
  }

  /** The stored transpile of a component, or undefined (missing or discarded). */
  async get(digest: string): Promise<TranspiledComponent | undefined> {
    const key = this.keyOf(digest);
    const file = join(this.directory, `${key}${ENTRY_SUFFIX}`);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      this.counts.misses += 1;
      return undefined;
    }
    const entry = decodeEntry(bytes, key);
    if (typeof entry === 'string') {
      this.counts.discarded += 1;
      this.counts.misses += 1;
      this.log.warn(
        { entry: `${key}${ENTRY_SUFFIX}`, reason: entry },
        'transpile cache entry ignored',
      );
      await rm(file, { force: true }).catch(() => undefined);
      return undefined;
    }
    this.counts.hits += 1;
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined);
    return entry;
  }

  /** Stores an accepted component's transpile; a failure is a warning, never the load's. */
  async put(digest: string, output: TranspiledComponent): Promise<void> {
    const key = this.keyOf(digest);
    const temp = join(
      this.directory,
      `.${key}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
    );
    try {
      await writeFile(temp, encodeEntry(key, output), { mode: 0o600, flag: 'wx' });
      await rename(temp, join(this.directory, `${key}${ENTRY_SUFFIX}`));
      this.counts.stored += 1;
      await this.evict();
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      this.log.warn(
        { reason: (error as NodeJS.ErrnoException).code ?? 'write failed' },
        'transpile cache entry not stored',
      );
    }
  }

  /** Drops the least recently used entries beyond the size bound, and stale temp files. */
  private async evict(): Promise<void> {
    const now = Date.now();
    const entries: { file: string; size: number; mtimeMs: number }[] = [];
    for (const name of await readdir(this.directory)) {
      const file = join(this.directory, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      if (name.endsWith('.tmp') && now - info.mtimeMs > STALE_TEMP_MS) {
        await rm(file, { force: true }).catch(() => undefined);
      } else if (name.endsWith(ENTRY_SUFFIX)) {
        entries.push({ file, size: info.size, mtimeMs: info.mtimeMs });
      }
    }
    entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
    let total = entries.reduce((sum, e) => sum + e.size, 0);
    for (const entry of entries) {
      if (total <= this.maxBytes) break;
      await rm(entry.file, { force: true }).catch(() => undefined);
      total -= entry.size;
    }
  }

  private keyOf(digest: string): string {
    return createHash('sha256').update(`${this.identity}\n${digest}`).digest('hex');
  }
}

function modeOf(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, '0');
}

function encodeEntry(key: string, output: TranspiledComponent): Buffer {
  const header: EntryHeader = {
    key,
    glue: output.glue,
    imports: output.imports,
    exports: output.exports,
    witImports: output.witImports,
    witExports: output.witExports,
    modules: output.coreModules.map(([name, bytes]) => [name, bytes.byteLength]),
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(headerBytes.byteLength);
  const body = Buffer.concat([length, headerBytes, ...output.coreModules.map(([, b]) => b)]);
  const digest = createHash('sha256').update(body).digest();
  return Buffer.concat([MAGIC, digest, body]);
}

/** The entry, or why it does not verify. */
function decodeEntry(bytes: Buffer, key: string): TranspiledComponent | string {
  const start = MAGIC.length + DIGEST_BYTES;
  if (bytes.length < start + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    return 'not an entry of this format';
  }
  const body = bytes.subarray(start);
  const digest = createHash('sha256').update(body).digest();
  if (!digest.equals(bytes.subarray(MAGIC.length, start))) return 'integrity digest mismatch';
  const headerLength = body.readUInt32BE(0);
  let header: EntryHeader;
  try {
    header = JSON.parse(body.subarray(4, 4 + headerLength).toString('utf8')) as EntryHeader;
  } catch {
    return 'unreadable header';
  }
  if (header.key !== key) return 'written for another key';
  let offset = 4 + headerLength;
  const coreModules: [string, Uint8Array][] = [];
  for (const [name, size] of header.modules) {
    if (offset + size > body.length) return 'truncated';
    coreModules.push([name, new Uint8Array(body.subarray(offset, offset + size))]);
    offset += size;
  }
  if (offset !== body.length) return 'trailing bytes';
  return {
    ok: true,
    glue: header.glue,
    coreModules,
    imports: header.imports,
    exports: header.exports,
    witImports: header.witImports,
    witExports: header.witExports,
  };
}
