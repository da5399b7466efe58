import { capMemory, encodeU32, MemoryCapError } from './memory-cap';

/** The JS API's parts this test uses (the Node projects do not load the DOM typings). */
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      instantiate(
        bytes: Uint8Array,
        imports?: object,
      ): Promise<{ instance: { exports: Record<string, unknown> } }>;
      Memory: new (descriptor: { initial: number; maximum?: number }) => object;
    };
  }
).WebAssembly;

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const section = (id: number, content: number[]) => [id, ...encodeU32(content.length), ...content];
const name = (text: string) => [text.length, ...Buffer.from(text)];
/** type 0: (i32) -> i32 */
const TYPES = section(1, [0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f]);
const FUNCS = section(3, [0x01, 0x00]);
/** `grow(n)`: memory.grow n, answering the old size in pages or -1. */
const CODE = section(10, [0x01, 0x06, 0x00, 0x20, 0x00, 0x40, 0x00, 0x0b]);
const EXPORT_GROW = section(7, [0x01, ...name('grow'), 0x00, 0x00]);

/** A module defining its memory: `limits` are the memory section's limits bytes. */
function definedMemory(limits: number[]): Uint8Array {
  return Uint8Array.from([
    ...HEADER,
    ...TYPES,
    ...FUNCS,
    ...section(5, [0x01, ...limits]),
    ...EXPORT_GROW,
    ...CODE,
  ]);
}

/** A module importing `env.memory` with `limits`. */
function importedMemory(limits: number[]): Uint8Array {
  return Uint8Array.from([
    ...HEADER,
    ...TYPES,
    ...section(2, [0x01, ...name('env'), ...name('memory'), 0x02, ...limits]),
    ...FUNCS,
    ...EXPORT_GROW,
    ...CODE,
  ]);
}

async function grower(bytes: Uint8Array, imports?: object): Promise<(pages: number) => number> {
  const { instance } = await wasm.instantiate(bytes, imports);
  return instance.exports['grow'] as (pages: number) => number;
}

describe('memory cap (rewriting the declared maximum)', () => {
  it('lets an uncapped memory grow, and stops a capped one at the cap', async () => {
    const module = definedMemory([0x00, 0x01]); // min 1 page, no maximum
    const uncapped = await grower(module);
    expect(uncapped(10)).toBe(1);

    const capped = capMemory(module, 4);
    expect(capped.memories).toEqual([{ minPages: 1 }]);
    const grow = await grower(capped.bytes);
    expect(grow(3)).toBe(1); // 1 -> 4 pages: at the cap
    expect(grow(1)).toBe(-1); // past it: refused
  });

  it('keeps a declared maximum below the cap and lowers one above it', async () => {
    const low = capMemory(definedMemory([0x01, 0x01, 0x02]), 4);
    expect(low.memories).toEqual([{ minPages: 1, maxPages: 2 }]);
    const growLow = await grower(low.bytes);
    expect(growLow(1)).toBe(1);
    expect(growLow(1)).toBe(-1);

    const high = capMemory(definedMemory([0x01, 0x01, ...encodeU32(1000)]), 4);
    expect(high.memories).toEqual([{ minPages: 1, maxPages: 1000 }]);
    const growHigh = await grower(high.bytes);
    expect(growHigh(3)).toBe(1);
    expect(growHigh(1)).toBe(-1);
  });

  it('caps an imported memory too (the host must then supply one within the cap)', async () => {
    const capped = capMemory(importedMemory([0x01, 0x01, ...encodeU32(1000)]), 4);
    expect(capped.memories).toEqual([{ minPages: 1, maxPages: 1000 }]);
    // A memory larger than the rewritten import's maximum no longer links.
    await expect(
      grower(capped.bytes, { env: { memory: new wasm.Memory({ initial: 1, maximum: 1000 }) } }),
    ).rejects.toThrow();
    const grow = await grower(capped.bytes, {
      env: { memory: new wasm.Memory({ initial: 1, maximum: 4 }) },
    });
    expect(grow(3)).toBe(1);
    expect(grow(1)).toBe(-1);
  });

  it('refuses what it cannot cap', () => {
    expect(() => capMemory(definedMemory([0x00, 0x05]), 4)).toThrow(
      /needs 5 pages of memory at start; the cap is 4/,
    );
    expect(() => capMemory(definedMemory([0x03, 0x01, 0x02]), 4)).toThrow(/shared memories/);
    expect(() => capMemory(definedMemory([0x04, 0x01]), 4)).toThrow(/64-bit memories/);
    expect(() => capMemory(Buffer.from('not wasm'), 4)).toThrow(MemoryCapError);
    const truncated = definedMemory([0x00, 0x01]).subarray(0, 22);
    expect(() => capMemory(truncated, 4)).toThrow(MemoryCapError);
    expect(() => capMemory(definedMemory([0x00, 0x01]), 0)).toThrow(/out of range/);
  });
});
