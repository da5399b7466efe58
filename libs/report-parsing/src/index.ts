// @platform/report-parsing: SARIF 2.1.0 and SonarQube readers that turn a report into batches
// of normalized findings with stable identities and result digests. Pure: no NestJS, no database.
export * from './normalized-finding';
export * from './report-parse.errors';
export * from './report-source';
export { DEFAULT_BATCH_SIZE } from './report-batching';
export type { ReadReportOptions } from './report-batching';
export {
  archiveSignature,
  detectReportFormat,
  DETECTION_PREFIX_BYTES,
  REPORT_FORMATS,
} from './detect-report-format';
export type { ReportFormat } from './detect-report-format';
export { readReport } from './read-report';
export { memoFromCopyText, RESULT_DIGEST_VERSION, resultDigest, runSeed } from './result-digest';
export type { ResultMemo } from './result-digest';
export { readSarif } from './sarif-reader';
export { readSonarqube } from './sonarqube-reader';
export {
  LEVEL_SEVERITY,
  maxSeverity,
  severityFromLevel,
  severityFromScore,
  severityFromWord,
} from './severity';
export {
  SONAR_HOTSPOT_SEVERITY,
  SONAR_IMPACT_SEVERITY,
  SONAR_LEGACY_SEVERITY,
} from './sonarqube-severity';
export {
  findingIdentity,
  identityKind,
  identityMaterial,
  IDENTITY_VERSION,
} from './finding-identity';
export type { IdentityInput, IdentityKind } from './finding-identity';
export { isWebAddress, normalizeFindingPath, normalizeWebAddress } from './finding-path';
export {
  IGNORED_VALUE_CODES,
  RESULT_WARNING_CODES,
  addWarnings,
  isIgnoredValueCode,
  isResultWarningCode,
} from './result-warnings';
export type {
  IgnoredValueCode,
  IgnoredValues,
  ResultWarningCode,
  ResultWarnings,
} from './result-warnings';
export { MAX_NESTING } from './json-structure-scanner';
export { MAX_COVERAGE_ENTRIES } from './run-coverage';
export {
  MAX_CODE_FLOWS,
  MAX_FLOW_MESSAGE,
  MAX_FLOW_STEPS,
  MAX_RELATED_LOCATIONS,
} from './sarif-flows';
