import { join } from 'node:path';

/**
 * Where tests and benchmarks keep built components (`--cache` of the build command): the
 * local stack's state directory, which outlives a clone, so `npm test` componentizes a
 * plugin once per change of its sources (6-30 s each) rather than once per run. Entries are
 * keyed by the content hash of the sources, the WIT world and the componentize-js version.
 * `PLUGIN_COMPONENT_CACHE` overrides the place.
 */
export function componentCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  return (
    env['PLUGIN_COMPONENT_CACHE'] ??
    join(env['STACK_STATE_DIR'] ?? '/var/tmp/secplatform-stack', 'plugin-components')
  );
}
