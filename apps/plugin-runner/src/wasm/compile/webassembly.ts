/**
 * The part of the WebAssembly JS API the runner uses, typed here: TypeScript declares it only
 * in the DOM library, which the Node projects (and the benchmarks) do not load.
 */

/** A compiled core module (`WebAssembly.Module`); structured-cloned to sandbox threads. */
export interface CompiledWasmModule {
  readonly __brand?: 'WebAssembly.Module';
}

interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<CompiledWasmModule>;
}

export const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
