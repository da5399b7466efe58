// Jest's runtime with a V8 code cache per worker process (jest.preset.js `runtime`).
//
// Jest gives every test file a fresh module registry, so each file compiles the ~3 500 modules
// of a service again (vm.compileFunction: parse, pre-parse of every inner function, top-level
// code). The compiled code does not depend on the file's context, so the first compile of a
// module keeps V8's code cache and the next test files in the worker compile from it. A cache
// entry is used only for the very same source text (a module transformed anew is compiled
// anew); V8 itself refuses an entry built by another V8 or with other flags, but not one built
// from another source of the same length (libs/testing/test/cached-runtime.e2e-spec.ts).
//
// The cache keeps a copy of V8's data: the Buffer V8 returns is made in the test file's context
// and kept, it kept that file's whole context (~40 MB for a findings e2e file) alive; Jest's
// --detectLeaks reported it even on a trivial spec.
const vm = require('node:vm');

const compile = vm.compileFunction;
const cache = new Map();

vm.compileFunction = function compileWithCodeCache(code, params, options) {
  const filename = options?.filename;
  if (!filename || options.cachedData !== undefined || options.produceCachedData) {
    return compile.call(this, code, params, options);
  }
  const entry = cache.get(filename);
  if (entry !== undefined && entry.code === code) {
    const fn = compile.call(this, code, params, { ...options, cachedData: entry.data });
    if (!fn.cachedDataRejected) return fn;
  }
  const fn = compile.call(this, code, params, { ...options, produceCachedData: true });
  // A copy in the worker's own realm (see above).
  if (fn.cachedDataProduced) cache.set(filename, { code, data: Buffer.from(fn.cachedData) });
  return fn;
};

module.exports = require('jest-runtime');
