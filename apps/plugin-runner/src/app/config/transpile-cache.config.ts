import type { EnvReader } from '@platform/config';
import { isAbsolute } from 'node:path';
import {
  DEFAULT_TRANSPILE_CACHE_DIR,
  DEFAULT_TRANSPILE_CACHE_MAX_MB,
  type TranspileCacheSettings,
} from '../../wasm/compile/transpile-cache';

/**
 * PLUGIN_RUNNER_TRANSPILE_CACHE_DIR (default /var/tmp/secplatform/transpile-cache, `off`: no
 * disk cache) and PLUGIN_RUNNER_TRANSPILE_CACHE_MAX_MB (default 512, 1-65536): where the
 * runner keeps what jco made for the components it accepted, across restarts
 * (docs/plugins/limits.md "Load").
 */
export function readTranspileCacheSettings(read: EnvReader): TranspileCacheSettings {
  const raw = read.string('PLUGIN_RUNNER_TRANSPILE_CACHE_DIR', DEFAULT_TRANSPILE_CACHE_DIR);
  let directory: string | undefined = raw;
  if (raw === 'off') {
    directory = undefined;
  } else if (!isAbsolute(raw) || raw.includes('\0')) {
    read.problem(
      `PLUGIN_RUNNER_TRANSPILE_CACHE_DIR must be an absolute directory path or off, got "${raw}"`,
    );
    directory = undefined;
  }
  const maxMb = read.int('PLUGIN_RUNNER_TRANSPILE_CACHE_MAX_MB', DEFAULT_TRANSPILE_CACHE_MAX_MB, {
    min: 1,
    max: 65536,
  });
  return { directory, maxBytes: maxMb * 1024 * 1024 };
}
