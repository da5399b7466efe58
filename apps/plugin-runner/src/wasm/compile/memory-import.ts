/**
 * Turns the linear memory a core module defines into an import, so that a sandbox thread can
 * give each new instance a recycled memory (zero-filled, of the declared initial size) instead
 * of V8 allocating a fresh one — whose pages the kernel must fault in and clear again on every
 * instantiation (most of the 8-12 ms a componentize-js instance cost; docs/plugins/limits.md).
 * Only the memory's bytes are recycled, and only after they were set back to zero: a new
 * `WebAssembly.Memory` is all zeros too, so the new instance cannot tell the difference.
 * Everything else (globals, tables, segments, the glue's state) comes from a new instance.
 */
import {
  concat,
  encodeU32,
  FLAG_HAS_MAX,
  IMPORT_FUNC,
  IMPORT_GLOBAL,
  IMPORT_MEMORY,
  IMPORT_TABLE,
  IMPORT_TAG,
  MemoryCapError,
  Reader,
  SECTION_CUSTOM,
  SECTION_IMPORT,
  SECTION_MEMORY,
} from './memory-cap';

/** Where the rewritten module imports its memory from (a name the glue never uses). */
export const SANDBOX_MEMORY_IMPORT = { module: 'findsvc:sandbox', name: 'memory' } as const;

/** The limits of the memory a thread must create for a rewritten module. */
export interface ImportedMemory {
  initialPages: number;
  maximumPages: number;
}

interface Section {
  id: number;
  start: number;
  payloadStart: number;
  end: number;
}

/**
 * The module with its one defined memory moved to an import of `SANDBOX_MEMORY_IMPORT` (same
 * index 0, same limits), or the module unchanged (`memory` undefined) when it defines no memory,
 * several, imports one already, or declares no maximum (capMemory always sets one first).
 */
export function importDefinedMemory(module: Uint8Array): {
  bytes: Uint8Array;
  memory?: ImportedMemory;
} {
  const reader = new Reader(module);
  reader.offset = 8;
  const sections: Section[] = [];
  while (reader.offset < module.length) {
    const start = reader.offset;
    const id = reader.byte();
    const size = reader.u32();
    const payloadStart = reader.offset;
    if (payloadStart + size > module.length) throw new MemoryCapError('truncated section');
    sections.push({ id, start, payloadStart, end: payloadStart + size });
    reader.offset = payloadStart + size;
  }
  const unchanged = { bytes: module };
  const memorySection = sections.find((s) => s.id === SECTION_MEMORY);
  if (!memorySection) return unchanged;
  reader.offset = memorySection.payloadStart;
  if (reader.u32() !== 1) return unchanged;
  const limitsStart = reader.offset;
  const flags = reader.byte();
  if (flags !== FLAG_HAS_MAX) return unchanged;
  const initialPages = reader.u32();
  const maximumPages = reader.u32();
  if (reader.offset !== memorySection.end) throw new MemoryCapError('malformed memory section');
  const limits = module.subarray(limitsStart, memorySection.end);

  const importSection = sections.find((s) => s.id === SECTION_IMPORT);
  let importCount = 0;
  let importEntries: Uint8Array = new Uint8Array(0);
  if (importSection) {
    reader.offset = importSection.payloadStart;
    importCount = reader.u32();
    const entriesStart = reader.offset;
    if (importsMemory(reader, importCount, importSection.end)) return unchanged;
    importEntries = module.subarray(entriesStart, importSection.end);
  }
  const text = new TextEncoder();
  const moduleName = text.encode(SANDBOX_MEMORY_IMPORT.module);
  const fieldName = text.encode(SANDBOX_MEMORY_IMPORT.name);
  const payload = concat([
    encodeU32(importCount + 1),
    importEntries,
    encodeU32(moduleName.length),
    moduleName,
    encodeU32(fieldName.length),
    fieldName,
    Uint8Array.of(IMPORT_MEMORY),
    limits,
  ]);
  const newImportSection = concat([
    Uint8Array.of(SECTION_IMPORT),
    encodeU32(payload.length),
    payload,
  ]);

  const out: Uint8Array[] = [module.subarray(0, 8)];
  let placed = false;
  for (const section of sections) {
    // The import section comes right after the type section (ids 1 < 2 < 3 ...).
    if (!placed && section.id !== SECTION_CUSTOM && section.id > SECTION_IMPORT) {
      out.push(newImportSection);
      placed = true;
    }
    if (section.id === SECTION_IMPORT || section.id === SECTION_MEMORY) continue;
    out.push(module.subarray(section.start, section.end));
  }
  if (!placed) out.push(newImportSection);
  return { bytes: concat(out), memory: { initialPages, maximumPages } };
}

/** Whether the import entries (after the count) include a memory. */
function importsMemory(reader: Reader, count: number, end: number): boolean {
  let found = false;
  for (let i = 0; i < count; i++) {
    reader.skip(reader.u32()); // module name
    reader.skip(reader.u32()); // field name
    const kind = reader.byte();
    switch (kind) {
      case IMPORT_FUNC:
        reader.u32();
        break;
      case IMPORT_TABLE: {
        reader.byte(); // element type
        const flags = reader.byte();
        reader.u32();
        if (flags & FLAG_HAS_MAX) reader.u32();
        break;
      }
      case IMPORT_MEMORY: {
        found = true;
        const flags = reader.byte();
        reader.u32();
        if (flags & FLAG_HAS_MAX) reader.u32();
        break;
      }
      case IMPORT_GLOBAL:
        reader.skip(2);
        break;
      case IMPORT_TAG:
        reader.byte();
        reader.u32();
        break;
      default:
        throw new MemoryCapError(`unknown import kind ${kind}`);
    }
  }
  if (reader.offset !== end) throw new MemoryCapError('malformed import section');
  return found;
}
