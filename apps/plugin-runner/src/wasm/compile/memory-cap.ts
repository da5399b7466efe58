/**
 * Caps the linear memory of a core WebAssembly module by rewriting the declared maximum of
 * every memory it defines or imports. V8 has no other limit on wasm memory (a worker's
 * `resourceLimits` do not cover it): a `memory.grow` past the new maximum fails, and the
 * guest traps on its allocation failure.
 */

/** 64 KiB: the size of one wasm page. */
export const WASM_PAGE_BYTES = 65536;

// Section ids, import kinds and memory limit flags of the binary format (memory-import.ts too).
export const SECTION_CUSTOM = 0;
export const SECTION_IMPORT = 2;
export const SECTION_MEMORY = 5;
export const IMPORT_FUNC = 0;
export const IMPORT_TABLE = 1;
export const IMPORT_MEMORY = 2;
export const IMPORT_GLOBAL = 3;
export const IMPORT_TAG = 4;
export const FLAG_HAS_MAX = 0x01;
const FLAG_SHARED = 0x02;
const FLAG_MEMORY64 = 0x04;

export class MemoryCapError extends Error {
  override name = 'MemoryCapError';
}

export interface MemoryCapResult {
  bytes: Uint8Array;
  /** Memories found (defined and imported) with their declared limits before the cap. */
  memories: { minPages: number; maxPages?: number }[];
}

/**
 * Returns the module with every memory's maximum set to `min(declared, maxPages)`. Refuses a
 * module whose memory needs more than the cap at start (`min > maxPages`), a 64-bit or a
 * shared memory, and anything that is not a well-formed module header/section list.
 */
export function capMemory(module: Uint8Array, maxPages: number): MemoryCapResult {
  if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > 65536) {
    throw new MemoryCapError(`memory cap of ${maxPages} pages is out of range`);
  }
  if (
    module.length < 8 ||
    module[0] !== 0x00 ||
    module[1] !== 0x61 ||
    module[2] !== 0x73 ||
    module[3] !== 0x6d ||
    module[4] !== 0x01
  ) {
    throw new MemoryCapError('not a core WebAssembly module (version 1)');
  }
  const reader = new Reader(module);
  reader.offset = 8;
  const out: Uint8Array[] = [module.subarray(0, 8)];
  const memories: MemoryCapResult['memories'] = [];
  while (reader.offset < module.length) {
    const sectionStart = reader.offset;
    const id = reader.byte();
    const size = reader.u32();
    const payloadStart = reader.offset;
    const payloadEnd = payloadStart + size;
    if (payloadEnd > module.length) throw new MemoryCapError('truncated section');
    if (id === SECTION_MEMORY || id === SECTION_IMPORT) {
      const payload =
        id === SECTION_MEMORY
          ? rewriteMemorySection(reader, payloadEnd, maxPages, memories)
          : rewriteImportSection(reader, payloadEnd, maxPages, memories);
      out.push(Uint8Array.of(id), encodeU32(payload.length), payload);
    } else {
      out.push(module.subarray(sectionStart, payloadEnd));
    }
    reader.offset = payloadEnd;
  }
  return { bytes: concat(out), memories };
}

function rewriteMemorySection(
  reader: Reader,
  end: number,
  maxPages: number,
  memories: MemoryCapResult['memories'],
): Uint8Array {
  const count = reader.u32();
  const parts: Uint8Array[] = [encodeU32(count)];
  for (let i = 0; i < count; i++) parts.push(rewriteLimits(reader, maxPages, memories));
  if (reader.offset !== end) throw new MemoryCapError('malformed memory section');
  return concat(parts);
}

function rewriteImportSection(
  reader: Reader,
  end: number,
  maxPages: number,
  memories: MemoryCapResult['memories'],
): Uint8Array {
  const count = reader.u32();
  const parts: Uint8Array[] = [encodeU32(count)];
  for (let i = 0; i < count; i++) {
    const start = reader.offset;
    reader.skip(reader.u32()); // module name
    reader.skip(reader.u32()); // field name
    const kind = reader.byte();
    parts.push(reader.bytes.subarray(start, reader.offset));
    switch (kind) {
      case IMPORT_FUNC:
        parts.push(encodeU32(reader.u32()));
        break;
      case IMPORT_TABLE: {
        const tableStart = reader.offset;
        reader.byte(); // element type
        const flags = reader.byte();
        reader.u32();
        if (flags & FLAG_HAS_MAX) reader.u32();
        parts.push(reader.bytes.subarray(tableStart, reader.offset));
        break;
      }
      case IMPORT_MEMORY:
        parts.push(rewriteLimits(reader, maxPages, memories));
        break;
      case IMPORT_GLOBAL:
        parts.push(reader.bytes.subarray(reader.offset, reader.offset + 2));
        reader.skip(2);
        break;
      case IMPORT_TAG:
        parts.push(Uint8Array.of(reader.byte()), encodeU32(reader.u32()));
        break;
      default:
        throw new MemoryCapError(`unknown import kind ${kind}`);
    }
  }
  if (reader.offset !== end) throw new MemoryCapError('malformed import section');
  return concat(parts);
}

function rewriteLimits(
  reader: Reader,
  maxPages: number,
  memories: MemoryCapResult['memories'],
): Uint8Array {
  const flags = reader.byte();
  if (flags & FLAG_MEMORY64) throw new MemoryCapError('64-bit memories are not supported');
  if (flags & FLAG_SHARED) throw new MemoryCapError('shared memories are not supported');
  if (flags & ~(FLAG_HAS_MAX | FLAG_SHARED | FLAG_MEMORY64)) {
    throw new MemoryCapError(`unknown memory limits flags ${flags}`);
  }
  const minPages = reader.u32();
  const declaredMax = flags & FLAG_HAS_MAX ? reader.u32() : undefined;
  memories.push({ minPages, ...(declaredMax === undefined ? {} : { maxPages: declaredMax }) });
  if (minPages > maxPages) {
    throw new MemoryCapError(
      `the module needs ${minPages} pages of memory at start; the cap is ${maxPages}`,
    );
  }
  const max = Math.min(declaredMax ?? maxPages, maxPages);
  return concat([Uint8Array.of(FLAG_HAS_MAX), encodeU32(minPages), encodeU32(max)]);
}

export class Reader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}
  byte(): number {
    if (this.offset >= this.bytes.length) throw new MemoryCapError('unexpected end of module');
    return this.bytes[this.offset++];
  }
  u32(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) {
        if (result > 0xffffffff) throw new MemoryCapError('LEB128 value out of range');
        return result;
      }
    }
    throw new MemoryCapError('LEB128 value too long');
  }
  skip(n: number): void {
    if (this.offset + n > this.bytes.length) throw new MemoryCapError('unexpected end of module');
    this.offset += n;
  }
}

export function encodeU32(value: number): Uint8Array {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let b = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) b |= 0x80;
    out.push(b);
  } while (rest !== 0);
  return Uint8Array.from(out);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
