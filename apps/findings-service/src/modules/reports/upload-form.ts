import type { Readable } from 'node:stream';
import type { FieldProblem } from '@platform/errors';
import { InputValidationError } from '@platform/errors';
import { isStorableText } from '@platform/http';
import { REPORT_FORMATS, ReportFormat } from './report-status';
import { ReportsError } from './reports.errors';

/** One part of the multipart upload, independent of the HTTP framework. */
export type UploadPart =
  | { type: 'file'; field: string; filename: string; stream: Readable }
  | { type: 'field'; field: string; value: unknown };

/** The validated non-file form fields. */
export interface UploadFields {
  format: ReportFormat | null;
  engine: string | null;
  engineVersion: string | null;
  commitId: string | null;
  verifyFixes: boolean;
}

/** The commit when the form has none: header `X-Commit-Id`, else query `commit_id`. */
export interface FallbackCommitId {
  value: string;
  source: 'X-Commit-Id' | 'commit_id';
}

/** The one file part's field name. */
export const FILE_FIELD = 'file';
export const MAX_FILENAME_LENGTH = 255;

const ACCEPTED_EXTENSIONS = ['.sarif', '.json'];
const TEXT_LIMITS: Record<string, number> = {
  engine: 200,
  engine_version: 100,
  commit_id: 200,
};
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function hasAcceptedExtension(filename: string): boolean {
  const lower = filename.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((ext) => lower.endsWith(ext) && lower.length > ext.length);
}

function isCleanText(value: string): boolean {
  return isStorableText(value) && !CONTROL.test(value);
}

/** The base name of the uploaded file: 1-255 characters without control characters. */
export function uploadFileName(filename: string): string {
  const name = filename.split(/[\\/]/).pop() ?? '';
  if (name.length === 0 || name.length > MAX_FILENAME_LENGTH || !isCleanText(name)) {
    throw new ReportsError('invalid_filename');
  }
  return name;
}

/**
 * Adds a text part to `fields`. A file part under a form field's name, a non-text value
 * (a part declared application/json) and a field given twice are refused, naming the field.
 */
export function collectField(fields: Map<string, string>, part: UploadPart): void {
  const problem =
    part.type === 'file'
      ? `${part.field} must be a text field, not a file`
      : typeof part.value !== 'string'
        ? `${part.field} must be plain text`
        : fields.has(part.field)
          ? `${part.field} must be given once`
          : undefined;
  if (problem) throw new InputValidationError([{ field: part.field, problems: [problem] }]);
  if (part.type === 'field') fields.set(part.field, part.value as string);
}

/**
 * Validates the form fields; the commit falls back to the `X-Commit-Id` header, then to the
 * `commit_id` query parameter (checked the same way, named by their source).
 */
export function parseUploadFields(
  fields: Map<string, string>,
  fallback: FallbackCommitId | undefined,
): UploadFields {
  const problems: FieldProblem[] = [];
  const text = (name: string, raw: string | undefined, max: number): string | null => {
    const value = raw?.trim();
    if (!value) return null;
    if (value.length > max) {
      problems.push({ field: name, problems: [`${name} must be at most ${max} characters`] });
    } else if (!isCleanText(value)) {
      problems.push({ field: name, problems: [`${name} must not contain control characters`] });
    }
    return value;
  };
  const rawFormat = fields.get('format')?.trim().toLowerCase();
  let format: ReportFormat | null = null;
  if (rawFormat) {
    if ((REPORT_FORMATS as readonly string[]).includes(rawFormat))
      format = rawFormat as ReportFormat;
    else problems.push({ field: 'format', problems: ['format must be one of sarif, sonarqube'] });
  }
  const rawVerify = fields.get('verify_fixes')?.trim().toLowerCase();
  let verifyFixes = false;
  if (rawVerify) {
    if (['true', '1', 'yes', 'on'].includes(rawVerify)) verifyFixes = true;
    else if (!['false', '0', 'no', 'off'].includes(rawVerify)) {
      problems.push({ field: 'verify_fixes', problems: ['verify_fixes must be a boolean'] });
    }
  }
  const field = (name: string) => text(name, fields.get(name), TEXT_LIMITS[name]);
  const commitId =
    field('commit_id') ??
    (fallback ? text(fallback.source, fallback.value, TEXT_LIMITS.commit_id) : null);
  const result: UploadFields = {
    format,
    engine: field('engine'),
    engineVersion: field('engine_version'),
    commitId,
    verifyFixes,
  };
  if (problems.length > 0) throw new InputValidationError(problems);
  return result;
}
