import { parseCaptured } from './captured-json';
import { JsonRecord } from './json-value';
import { ScanAction, ScanFrame, ScanHandler } from './json-structure-scanner';
import { ReportParseError, structureInvalid } from './report-parse.errors';

/** Top-level arrays whose elements are findings. */
export const SONAR_RECORD_ARRAYS = ['issues', 'hotspots'] as const;
export type SonarRecordKind = (typeof SONAR_RECORD_ARRAYS)[number];

/** Same pass modes as SARIF: metadata (pass 1), records (pass 2), single (one-shot). */
export type SonarPassMode = 'metadata' | 'records' | 'single';

export interface SonarRecordItem {
  kind: SonarRecordKind;
  offset: number;
  value?: unknown;
  raw?: Buffer;
}

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;

function recordKind(key: string | undefined): SonarRecordKind | undefined {
  return SONAR_RECORD_ARRAYS.find((k) => k === key);
}

/** Scan handler for root → issues[] / hotspots[]; other members (components, rules) parsed whole. */
export class SonarScanHandler implements ScanHandler {
  readonly top: JsonRecord = {};
  /** Elements of `issues[]` / `hotspots[]` met (counted in every mode). */
  records = 0;
  private ready: SonarRecordItem[] = [];
  private sawRecords = false;

  constructor(private readonly mode: SonarPassMode) {}

  onValue(frames: readonly ScanFrame[], first: number): ScanAction {
    const depth = frames.length;
    if (depth === 0) {
      if (first !== OPEN_OBJECT) {
        throw new ReportParseError(
          'report_unsupported',
          'not a SonarQube report: not a JSON object',
        );
      }
      return 'descend';
    }
    if (depth === 1) {
      if (recordKind(frames[0].key) && first === OPEN_ARRAY) {
        this.sawRecords = true;
        return 'descend';
      }
      return this.mode === 'records' ? 'skip' : 'capture';
    }
    if (depth === 2) this.records += 1;
    return this.mode === 'metadata' ? 'skip' : 'capture';
  }

  onCapture(frames: readonly ScanFrame[], raw: Buffer, offset: number): void {
    if (frames.length === 1) {
      this.top[frames[0].key ?? ''] = parseCaptured(raw, offset);
      return;
    }
    const kind = recordKind(frames[0].key) ?? 'issues';
    if (this.mode === 'records')
      this.ready.push({ kind, offset, value: parseCaptured(raw, offset) });
    else this.ready.push({ kind, offset, raw });
  }

  onClose(): void {
    // Nothing per container: the context is built after pass 1 (components may follow issues).
  }

  drain(): SonarRecordItem[] {
    const out = this.ready;
    this.ready = [];
    return out;
  }

  validateDocument(): void {
    for (const key of SONAR_RECORD_ARRAYS) {
      const value = this.top[key];
      if (value !== undefined && value !== null && !Array.isArray(value))
        throw structureInvalid(key, 'an array');
    }
    if ('runs' in this.top) {
      throw new ReportParseError(
        'report_unsupported',
        'this looks like SARIF, not a SonarQube report',
      );
    }
    if (!this.sawRecords && !SONAR_RECORD_ARRAYS.some((k) => Array.isArray(this.top[k]))) {
      throw new ReportParseError(
        'report_unsupported',
        'not a SonarQube report: no `issues` or `hotspots` array',
      );
    }
  }
}
