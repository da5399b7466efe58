import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The sandbox's thread scripts are plain ES modules (they import jco, an ES module with
 * top-level await, and must start fast): `src/wasm/threads/*.mjs` when running from sources
 * (tests, benchmarks), copied to `wasm-threads/` next to the bundle by the build.
 */
export function threadScript(name: 'compile-thread' | 'sandbox-thread'): string {
  const bundled = join(__dirname, 'wasm-threads', `${name}.mjs`);
  return existsSync(bundled) ? bundled : join(__dirname, `${name}.mjs`);
}
