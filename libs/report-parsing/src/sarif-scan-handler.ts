import { parseCaptured } from './captured-json';
import { asString, JsonRecord } from './json-value';
import { ScanAction, ScanFrame, ScanHandler } from './json-structure-scanner';
import { UploadDefaults } from './normalized-finding';
import { ReportParseError, structureInvalid } from './report-parse.errors';
import { buildRunContext, SarifRunContext } from './sarif-run-context';
import { addRunCoverage } from './sarif-coverage';

/**
 * - `metadata`: pass 1 over a reopenable source: top-level and run members are parsed, results
 *   are skipped (scanned, not retained);
 * - `results`: pass 2: everything but results is skipped, each result's raw bytes are handed
 *   over as soon as the chunk that ends it is scanned;
 * - `single`: one-shot source: metadata parsed, each run's raw results kept until the run
 *   closes (memory grows with the largest run).
 */
export type SarifPassMode = 'metadata' | 'results' | 'single';

/** One result's raw bytes (parsed later, if at all: see SarifNormalizer). */
export interface SarifResultItem {
  runIndex: number;
  offset: number;
  raw: Buffer;
}

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;

function unsupported(message: string): ReportParseError {
  return new ReportParseError('report_unsupported', message);
}

/** The one SARIF version read (2.0.0 and its drafts differ in shape: never read partly). */
export const SARIF_VERSION = '2.1.0';

/** A version the failure may show (report text, so only a plain version string). */
const SHOWABLE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;
/** The version a SARIF `$schema` URI names: `.../sarif-2.0.0`, `sarif-schema-2.1.0-rtm.5.json`. */
const SCHEMA_VERSION = /sarif[-_]?(?:schema-)?(\d+\.\d+\.\d+[0-9A-Za-z.+-]*?)(?:\.json)?\/?$/i;

/**
 * Refuses a SARIF version other than 2.1.0: `report_version_unsupported` when it is not 2.x at
 * all, `sarif_version_unsupported` for other 2.x versions (2.0.0 and its committee drafts wrote
 * `tool.name`, string `originalUriBaseIds`, `files`...: reading them as 2.1.0 merged results and
 * lost the scanner). The message and details name the version when it is a plain string.
 */
function versionRefused(version: unknown): ReportParseError {
  const text = typeof version === 'string' ? version.trim() : undefined;
  const shown = text !== undefined && SHOWABLE_VERSION.test(text) ? text : undefined;
  const code = text?.startsWith('2.') ? 'sarif_version_unsupported' : 'report_version_unsupported';
  return new ReportParseError(
    code,
    `SARIF version ${shown ?? '(unreadable)'} is not supported: only SARIF ${SARIF_VERSION} is read`,
    shown === undefined ? undefined : { version: shown },
  );
}

/** Scan handler for the SARIF path root → runs[] → run → results[]. */
export class SarifScanHandler implements ScanHandler {
  readonly top: JsonRecord = {};
  readonly contexts: SarifRunContext[];
  private members: JsonRecord = {};
  private runResults: SarifResultItem[] = [];
  private ready: SarifResultItem[] = [];
  private sawRuns = false;

  constructor(
    private readonly mode: SarifPassMode,
    private readonly defaults: UploadDefaults,
    contexts: SarifRunContext[] = [],
  ) {
    this.contexts = contexts;
  }

  onValue(frames: readonly ScanFrame[], first: number): ScanAction {
    const depth = frames.length;
    if (depth === 0) {
      if (first !== OPEN_OBJECT)
        throw unsupported('not a SARIF log: the report is not a JSON object');
      return 'descend';
    }
    const key = frames[depth - 1].key;
    if (depth === 1) {
      if (key === 'runs' && first === OPEN_ARRAY) {
        this.sawRuns = true;
        return 'descend';
      }
      return this.mode === 'results' ? 'skip' : 'capture';
    }
    if (depth === 2) {
      if (first !== OPEN_OBJECT) throw structureInvalid(`runs[${frames[1].index}]`, 'an object');
      this.members = {};
      return 'descend';
    }
    if (depth === 3) {
      if (key === 'results' && first === OPEN_ARRAY) return 'descend';
      // Anything else but null as `results` fails the report (checked in pass 1).
      return this.mode === 'results' ? 'skip' : 'capture';
    }
    return this.mode === 'metadata' ? 'skip' : 'capture';
  }

  onCapture(frames: readonly ScanFrame[], raw: Buffer, offset: number): void {
    const depth = frames.length;
    const key = frames[depth - 1].key ?? '';
    if (depth === 1) {
      const value = parseCaptured(raw, offset);
      this.top[key] = value;
      if (key === 'version') this.checkVersion(value);
      if (key === 'runs' && value !== null) throw structureInvalid('runs', 'an array');
    } else if (depth === 3) {
      const value = parseCaptured(raw, offset);
      if (key === 'results' && value !== null)
        throw structureInvalid(`runs[${frames[1].index}].results`, 'an array');
      this.members[key] = value;
    } else if (depth === 4) {
      const runIndex = frames[1].index;
      if (this.mode === 'results') this.ready.push({ runIndex, offset, raw });
      else this.runResults.push({ runIndex, offset, raw });
    }
  }

  onClose(frames: readonly ScanFrame[]): void {
    if (frames.length !== 3 || this.mode === 'results') return;
    const runIndex = frames[1].index;
    const ctx = buildRunContext(runIndex, this.members, this.defaults);
    addRunCoverage(ctx, this.members);
    this.contexts[runIndex] = ctx;
    this.members = {};
    for (const item of this.runResults) this.ready.push(item);
    this.runResults = [];
  }

  /** True once results may be released (the version, normally the first member, is known). */
  get versionKnown(): boolean {
    return this.top.version !== undefined;
  }

  /** Takes the results collected so far (single mode: only once the version is known). */
  drain(force = false): SarifResultItem[] {
    if (this.mode === 'single' && !force && !this.versionKnown) return [];
    const out = this.ready;
    this.ready = [];
    return out;
  }

  /**
   * Whole-document checks after the last byte: SARIF 2.1.0 with a `runs` member. Without a
   * `version` member (a serializer that dropped it), the `$schema` URI must name 2.1.0.
   */
  validateDocument(): void {
    if (this.top.version === undefined) {
      const schema = asString(this.top.$schema) ?? '';
      const named = SCHEMA_VERSION.exec(schema)?.[1];
      if (named === undefined) throw unsupported('not a SARIF 2.x log: no `version` member');
      if (!named.startsWith(SARIF_VERSION)) throw versionRefused(named);
    }
    if (!this.sawRuns && !('runs' in this.top))
      throw unsupported('not a SARIF log: no `runs` member');
  }

  private checkVersion(value: unknown): void {
    if (typeof value !== 'string' || value.trim() !== SARIF_VERSION) throw versionRefused(value);
  }
}
