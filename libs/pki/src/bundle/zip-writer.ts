import { crc32 } from 'node:zlib';
import { PkiError } from '../pki.errors';

export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
}

const UTF8_NAMES = 0x0800;
const UNIX_FILE_0644 = (0o100644 << 16) >>> 0;

function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getUTCFullYear(), 1980), 2107);
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

function checkName(name: string): Buffer {
  const bytes = Buffer.from(name, 'utf8');
  if (
    bytes.length === 0 ||
    bytes.length > 255 ||
    name.startsWith('/') ||
    name.includes('\\') ||
    name.split('/').some((part) => part === '..' || part === '')
  ) {
    throw new PkiError('bundle_invalid', 'invalid file name in bundle');
  }
  return bytes;
}

/**
 * ZIP archive with stored (uncompressed) entries and UTF-8 names; the timestamp is given so
 * the same content always gives the same bytes (stable ETag). No ZIP64: < 4 GiB, < 65535 files.
 */
export function writeStoredZip(entries: readonly ZipEntry[], modifiedAt: Date): Buffer {
  if (entries.length >= 0xffff) throw new PkiError('bundle_invalid', 'too many files in bundle');
  const { time, date } = dosDateTime(modifiedAt);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = checkName(entry.name);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(0, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    local.copy(central, 6, 4, 28);
    central.writeUInt32LE(UNIX_FILE_0644, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
    if (offset > 0xffffffff) throw new PkiError('bundle_invalid', 'bundle too large');
  }
  const centralDirectory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDirectory, end]);
}
