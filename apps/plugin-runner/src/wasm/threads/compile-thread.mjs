// @ts-check
/**
 * A compile thread (threads/compile-threads.ts keeps a few for the runner's loads): transpiles
 * components with jco in-process — the host generates the glue, never the publisher — and
 * reads each component's world (its exact, versioned imports and exports). Runs as its own
 * thread because jco is an ES module with top-level await, and so that a transpile running
 * past its time-out can be stopped by terminating the thread. Input: one message
 * `{ component: Uint8Array }` at a time (the next only after the answer); answer: one message
 * `{ ok: true, glue, coreModules, imports, exports, witImports, witExports }` or
 * `{ ok: false, message }`. The thread stays for the next component: jco's own WebAssembly is
 * compiled and tiered up by V8 during the first transpile (~1 s of CPU), not again.
 */
import { parentPort } from 'node:worker_threads';
import { componentWit, transpile } from '@bytecodealliance/jco';

/**
 * The top-level `import`/`export` items of the component's world, as written by
 * `componentWit`: `import findsvc:plugin/host@0.1.0;` gives the name; an inline item
 * (`import name: func(...)` or `: interface { ... }`) gives `inline:<name>`.
 * @param {string} wit
 * @param {'import' | 'export'} keyword
 */
function worldItems(wit, keyword) {
  const items = [];
  const pattern = new RegExp(`^  ${keyword}\\s+(\\S+?)(;|:\\s)`, 'gm');
  for (const match of wit.matchAll(pattern)) {
    items.push(match[2] === ';' ? match[1] : `inline:${match[1]}`);
  }
  return items;
}

/** @param {Uint8Array} component */
async function compile(component) {
  const wit = await componentWit(component);
  const output = await transpile(component, {
    name: 'plugin',
    instantiation: 'sync',
    wasiShim: false,
    noTypescript: true,
    quiet: true,
    base64Cutoff: 0,
  });
  const glue = output.files['plugin.js'];
  if (!glue) throw new Error('jco produced no glue module');
  const coreModules = Object.entries(output.files)
    .filter(([name]) => name.endsWith('.wasm'))
    .map(([name, bytes]) => [name, bytes]);
  return {
    ok: true,
    glue: Buffer.from(glue).toString('utf8'),
    coreModules,
    imports: output.imports,
    exports: output.exports.map(([name]) => name),
    witImports: worldItems(wit, 'import'),
    witExports: worldItems(wit, 'export'),
  };
}

parentPort?.on('message', (/** @type {{ component: Uint8Array }} */ { component }) => {
  compile(component).then(
    (result) => parentPort?.postMessage(result),
    (error) => parentPort?.postMessage({ ok: false, message: String(error?.message ?? error) }),
  );
});
