import type { Readable } from 'node:stream';
import type { FieldProblem } from '@platform/errors';
import { InputValidationError } from '@platform/errors';
import { REPORT_FORMATS, ReportFormat } from './report-status';

/** One part of the multipart upload, independent of the HTTP framework. */
export type UploadPart =
  | { type: 'file'; field: string; filename: string; stream: Readable }
  | { type: 'field'; field: string; value: string };

/** The validated non-file form fields. */
export interface UploadFields {
  format: ReportFormat | null;
  engine: string | null;
  engineVersion: string | null;
  commitId: string | null;
  verifyFixes: boolean;
}

const ACCEPTED_EXTENSIONS = ['.sarif', '.json'];
const TEXT_LIMITS: Record<string, number> = {
  engine: 200,
  engine_version: 100,
  commit_id: 200,
};

export function hasAcceptedExtension(filename: string): boolean {
  const lower = filename.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((ext) => lower.endsWith(ext) && lower.length > ext.length);
}

/**
 * Validates the form fields; the commit falls back to the `X-Commit-Id` header, then to the
 * `commit_id` query parameter.
 */
export function parseUploadFields(
  fields: Map<string, string>,
  fallbackCommitId: string | undefined,
): UploadFields {
  const problems: FieldProblem[] = [];
  const text = (name: string): string | null => {
    const value = fields.get(name)?.trim();
    if (!value) return null;
    if (value.length > (TEXT_LIMITS[name] ?? 200)) {
      problems.push({
        field: name,
        problems: [`${name} must be at most ${TEXT_LIMITS[name]} characters`],
      });
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
  const commitFallback = fallbackCommitId?.trim() ? fallbackCommitId.trim().slice(0, 200) : null;
  const result: UploadFields = {
    format,
    engine: text('engine'),
    engineVersion: text('engine_version'),
    commitId: text('commit_id') ?? commitFallback,
    verifyFixes,
  };
  if (problems.length > 0) throw new InputValidationError(problems);
  return result;
}
