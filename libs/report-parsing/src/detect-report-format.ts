import { asString } from './json-value';
import {
  JsonStructureScanner,
  refuseUtf16,
  ScanAction,
  ScanFrame,
  ScanHandler,
} from './json-structure-scanner';
import { ReportParseError } from './report-parse.errors';
import { ReportChunk, toBuffer } from './report-source';

export const REPORT_FORMATS = ['sarif', 'sonarqube'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** How many leading bytes detection wants (more is fine, fewer may be undecided). */
export const DETECTION_PREFIX_BYTES = 64 * 1024;

const ARCHIVES: readonly { name: string; at: number; magic: readonly number[] }[] = [
  { name: 'zip', at: 0, magic: [0x50, 0x4b, 0x03, 0x04] },
  { name: 'zip', at: 0, magic: [0x50, 0x4b, 0x05, 0x06] },
  { name: 'zip', at: 0, magic: [0x50, 0x4b, 0x07, 0x08] },
  { name: 'gzip', at: 0, magic: [0x1f, 0x8b] },
  { name: '7z', at: 0, magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { name: 'rar', at: 0, magic: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07] },
  { name: 'bzip2', at: 0, magic: [0x42, 0x5a, 0x68] },
  { name: 'xz', at: 0, magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { name: 'zstd', at: 0, magic: [0x28, 0xb5, 0x2f, 0xfd] },
  { name: 'tar', at: 257, magic: [0x75, 0x73, 0x74, 0x61, 0x72] },
];

/** Name of the archive format whose signature starts `bytes`, if any. */
export function archiveSignature(bytes: Uint8Array): string | undefined {
  const hit = ARCHIVES.find(
    ({ at, magic }) =>
      bytes.length >= at + magic.length && magic.every((b, i) => bytes[at + i] === b),
  );
  return hit?.name;
}

/**
 * Top-level keys that only a SonarQube export has: its record arrays, and the members
 * sonar-report writes before its `rules` object (which can run past the detection prefix).
 */
const SONAR_KEYS = ['issues', 'hotspots', 'sonarBaseURL', 'sonarComponent', 'hotspotKeys'];

/** Collects the top-level keys (and small `$schema` / `version` values) of a prefix. */
class TopLevelKeys implements ScanHandler {
  readonly keys = new Set<string>();
  readonly values = new Map<string, string>();

  onValue(frames: readonly ScanFrame[]): ScanAction {
    if (frames.length === 0) return 'descend';
    const key = frames[0].key ?? '';
    this.keys.add(key);
    return key === '$schema' || key === 'version' ? 'capture' : 'skip';
  }

  onCapture(frames: readonly ScanFrame[], raw: Buffer): void {
    const value = asString(JSON.parse(raw.toString('utf8')) as unknown);
    if (value !== undefined) this.values.set(frames[0].key ?? '', value);
  }

  onClose(): void {
    // Only the root object is descended; nothing to do when it closes.
  }
}

function firstSignificantByte(bytes: Buffer): number | undefined {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && [0x20, 0x0a, 0x0d, 0x09].includes(bytes[i])) i += 1;
  return bytes[i];
}

/**
 * Detects the report format from the first bytes (used when the upload has no `format`):
 * `sarif` when the top-level object has `runs`, a SARIF `$schema`, or only a `version`;
 * `sonarqube` when it has `issues`, `hotspots` or a sonar-report member (`sonarBaseURL`,
 * `sonarComponent`, `hotspotKeys`); undefined when it cannot tell (not a JSON
 * object, or no telling key within the prefix). A UTF-8 byte order mark is skipped. An archive
 * signature (zip, gzip, 7z, rar, tar, bzip2, xz, zstd) throws `report_archive_refused`; a UTF-16
 * byte order mark `report_encoding_unsupported`; a malformed prefix `report_malformed`.
 */
export function detectReportFormat(firstBytes: ReportChunk): ReportFormat | undefined {
  const bytes = toBuffer(firstBytes);
  const archive = archiveSignature(bytes);
  if (archive !== undefined) {
    throw new ReportParseError('report_archive_refused', `archives are refused (${archive} file)`, {
      archive,
    });
  }
  refuseUtf16(bytes);
  if (firstSignificantByte(bytes) !== 0x7b) return undefined;
  const handler = new TopLevelKeys();
  const scanner = new JsonStructureScanner(handler);
  try {
    scanner.write(bytes);
  } catch (error) {
    if (error instanceof ReportParseError) throw error;
    return undefined;
  }
  const schema = handler.values.get('$schema') ?? '';
  if (handler.keys.has('runs') || /sarif/i.test(schema)) return 'sarif';
  if (SONAR_KEYS.some((key) => handler.keys.has(key))) return 'sonarqube';
  return /^2\./.test(handler.values.get('version') ?? '') ? 'sarif' : undefined;
}
