import { capMemory, encodeU32 } from './memory-cap';
import { importDefinedMemory, SANDBOX_MEMORY_IMPORT } from './memory-import';

/** The JS API's parts this test uses (the Node projects do not load the DOM typings). */
interface WasmMemory {
  buffer: ArrayBuffer;
}
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      instantiate(
        bytes: Uint8Array,
        imports?: object,
      ): Promise<{ instance: { exports: Record<string, unknown> } }>;
      Memory: new (descriptor: { initial: number; maximum?: number }) => WasmMemory;
    };
  }
).WebAssembly;

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const section = (id: number, content: number[]) => [id, ...encodeU32(content.length), ...content];
const name = (text: string) => [text.length, ...Buffer.from(text)];
/** type 0: (i32) -> i32 */
const TYPES = section(1, [0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f]);
/** Import `env.twice` (type 0): function index 0. */
const IMPORT_TWICE = section(2, [0x01, ...name('env'), ...name('twice'), 0x00, 0x00]);
/** `peek(addr)`: twice(i32.load8_u addr) — function 1 with the import, 0 without. */
const peekBody = (callImport: boolean) =>
  callImport
    ? [0x00, 0x20, 0x00, 0x2d, 0x00, 0x00, 0x10, 0x00, 0x0b]
    : [0x00, 0x20, 0x00, 0x2d, 0x00, 0x00, 0x0b];
const funcs = section(3, [0x01, 0x00]);
const code = (callImport: boolean) => {
  const body = peekBody(callImport);
  return section(10, [0x01, body.length, ...body]);
};
const exports = (peekIndex: number) =>
  section(7, [0x02, ...name('peek'), 0x00, peekIndex, ...name('memory'), 0x02, 0x00]);
/** Active data segment: byte 21 at address 100. */
const DATA = section(11, [0x01, 0x00, 0x41, 0xe4, 0x00, 0x0b, 0x01, 21]);
const CUSTOM = section(0, [...name('note'), 1, 2, 3]);

function moduleWith(
  withImport: boolean,
  memory = section(5, [0x01, 0x01, 0x02, 0x05]),
): Uint8Array {
  return Uint8Array.from([
    ...HEADER,
    ...CUSTOM,
    ...TYPES,
    ...(withImport ? IMPORT_TWICE : []),
    ...funcs,
    ...memory,
    ...exports(withImport ? 1 : 0),
    ...code(withImport),
    ...DATA,
  ]);
}

describe('importDefinedMemory (a recycled memory for each instance)', () => {
  it.each([
    ['appends to an existing import section', true],
    ['adds an import section where there was none', false],
  ])('%s; the module runs on the memory it is given', async (_title, withImport) => {
    const rewritten = importDefinedMemory(moduleWith(withImport));
    expect(rewritten.memory).toEqual({ initialPages: 2, maximumPages: 5 });
    const memory = new wasm.Memory({ initial: 2, maximum: 5 });
    new Uint8Array(memory.buffer)[200] = 7; // what the recycler would have zeroed
    const { instance } = await wasm.instantiate(rewritten.bytes, {
      ...(withImport ? { env: { twice: (n: number) => n * 2 } } : {}),
      [SANDBOX_MEMORY_IMPORT.module]: { [SANDBOX_MEMORY_IMPORT.name]: memory },
    });
    expect(instance.exports['memory']).toBe(memory);
    const peek = instance.exports['peek'] as (addr: number) => number;
    // The data segment lands in the given memory; the rest is what the memory held.
    expect(peek(100)).toBe(withImport ? 42 : 21);
    expect(peek(200)).toBe(withImport ? 14 : 7);
  });

  it('leaves alone a module without a memory, with an imported one, or without a maximum', () => {
    const noMemory = moduleWith(false, []);
    expect(importDefinedMemory(noMemory)).toEqual({ bytes: noMemory });
    const imported = capMemory(
      Uint8Array.from([
        ...HEADER,
        ...section(2, [0x01, ...name('env'), ...name('memory'), 0x02, 0x00, 0x01]),
      ]),
      4,
    ).bytes;
    expect(importDefinedMemory(imported).memory).toBeUndefined();
    const unbounded = moduleWith(false, section(5, [0x01, 0x00, 0x02]));
    expect(importDefinedMemory(unbounded).memory).toBeUndefined();
  });
});
