import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { EnvReader } from '@platform/config';

/** Agent log snapshots (docs/certificate-service/log-snapshots.md). */
export interface CertsvcLogSnapshotConfig {
  /** `CERTSVC_LOG_SNAPSHOT_DIR`: absolute; created 0700; files 0600. API and worker share it. */
  dir: string;
  /** `CERTSVC_LOG_SNAPSHOT_MAX_BYTES` (10 MiB): largest upload as sent (gzip). */
  maxBytes: number;
  /** `CERTSVC_LOG_SNAPSHOT_MAX_INFLATED_BYTES` (100 MiB): largest inflated content. */
  maxInflatedBytes: number;
}

const MIB = 1024 * 1024;

export function readLogSnapshotConfig(r: EnvReader): CertsvcLogSnapshotConfig {
  const dir = r.string('CERTSVC_LOG_SNAPSHOT_DIR', join(tmpdir(), 'certsvc-log-snapshots'));
  if (!isAbsolute(dir)) r.problem('CERTSVC_LOG_SNAPSHOT_DIR must be an absolute path');
  return {
    dir,
    maxBytes: r.int('CERTSVC_LOG_SNAPSHOT_MAX_BYTES', 10 * MIB, { min: 1024, max: 100 * MIB }),
    maxInflatedBytes: r.int('CERTSVC_LOG_SNAPSHOT_MAX_INFLATED_BYTES', 100 * MIB, {
      min: 1024,
      max: 1024 * MIB,
    }),
  };
}
