// The part of the WebAssembly JS API the runner uses. TypeScript declares it only in the DOM
// library, which the Node projects do not load.
declare namespace WebAssembly {
  class Module {
    private readonly brand: 'WebAssembly.Module';
  }
  function compile(bytes: Uint8Array): Promise<Module>;
}
