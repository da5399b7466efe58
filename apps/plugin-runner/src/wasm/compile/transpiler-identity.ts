import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { threadScript } from '../threads/thread-scripts';

/**
 * What a transpile's output depends on besides the component (transpile-cache.ts keys its
 * entries with it): jco's version, as the compile thread resolves it, and the compile thread's
 * own script (its transpile options and how it reads the world). Another jco or a change of
 * the script gives other keys: entries made by the old ones are never read, and age out.
 */
export function transpilerIdentity(script: string = threadScript('compile-thread')): string {
  return createHash('sha256')
    .update(`jco ${jcoVersion(script)}\n`)
    .update(readFileSync(script))
    .digest('hex');
}

/** The version of the jco the compile thread imports (the package.json above its entry). */
function jcoVersion(script: string): string {
  let dir = dirname(createRequire(script).resolve('@bytecodealliance/jco'));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === '@bytecodealliance/jco' && pkg.version) return pkg.version;
    } catch {
      // no package.json here: look further up
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('the version of @bytecodealliance/jco is not found');
    dir = parent;
  }
}
