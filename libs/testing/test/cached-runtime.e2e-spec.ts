import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const WORKSPACE = join(__dirname, '../../..');
const RUNTIME = join(WORKSPACE, 'tools/test/cached-runtime.js');

/**
 * Compiles three functions under one file name in a plain Node process (inside Jest the
 * worker's `vm` is already patched): the same source twice, then another source of the same
 * length, which V8's own check of a code cache (it compares lengths) would not tell apart.
 */
const PROBE = `
const vm = require('node:vm');
if (process.argv[1]) require(process.argv[1]);
const compile = (code) => vm.compileFunction(code, [], { filename: '/planted/module.js' });
const first = compile('return 40 + 2;');
const again = compile('return 40 + 2;');
const other = compile('return 41 + 2;');
process.stdout.write(JSON.stringify({
  values: [first(), again(), other()],
  again: again.cachedDataRejected,
  other: other.cachedDataRejected,
}));
`;

/**
 * Compiles a module in a context of its own (as Jest does a test file's), drops the context and
 * says whether a GC could free it: the cache must not keep a test file's context alive.
 */
const CONTEXT_PROBE = `
const vm = require('node:vm');
require(process.argv[1]);
let context = vm.createContext({});
const freed = new WeakRef(context);
vm.compileFunction('return 40 + 2;', [], { filename: '/planted/context.js', parsingContext: context });
context = undefined;
setTimeout(() => {
  gc();
  process.stdout.write(JSON.stringify({ freed: freed.deref() === undefined }));
}, 10);
`;

async function probe(runtime?: string, script = PROBE): Promise<Record<string, unknown>> {
  const args = ['--expose-gc', '-e', script, ...(runtime ? [runtime] : [])];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: WORKSPACE });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("Jest's runtime with a per-worker code cache (tools/test/cached-runtime.js)", () => {
  it('compiles the same source again from the code cache, another source anew', async () => {
    expect(await probe(RUNTIME)).toEqual({ values: [42, 42, 43], again: false, other: undefined });
  });

  it("keeps no test file's context alive (the cached data is copied out of it)", async () => {
    expect(await probe(RUNTIME, CONTEXT_PROBE)).toEqual({ freed: true });
  });

  it('leaves plain Node without a cache (the probe tells the two apart)', async () => {
    expect(await probe()).toEqual({ values: [42, 42, 43] });
  });
});
