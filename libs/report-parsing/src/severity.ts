import { Severity } from './normalized-finding';

/**
 * SARIF `level` → severity (spec "Severity": result level, else rule level):
 *
 * | level   | severity |
 * |---------|----------|
 * | error   | HIGH     |
 * | warning | MEDIUM   |
 * | note    | LOW      |
 * | none    | INFO     |
 */
export const LEVEL_SEVERITY: Readonly<Record<string, Severity>> = {
  error: 'HIGH',
  warning: 'MEDIUM',
  note: 'LOW',
  none: 'INFO',
};

/**
 * Words accepted in an explicit `severity` property (case-insensitive). The five canonical
 * names, common synonyms, and SonarQube's legacy words so that mixed tool chains agree.
 */
const SEVERITY_WORDS: Readonly<Record<string, Severity>> = {
  critical: 'CRITICAL',
  blocker: 'CRITICAL',
  high: 'HIGH',
  major: 'MEDIUM',
  medium: 'MEDIUM',
  moderate: 'MEDIUM',
  low: 'LOW',
  minor: 'LOW',
  info: 'INFO',
  informational: 'INFO',
  information: 'INFO',
  none: 'INFO',
};

/** SARIF level word → severity, or undefined for anything else. */
export function severityFromLevel(level: unknown): Severity | undefined {
  return typeof level === 'string' ? LEVEL_SEVERITY[level.trim().toLowerCase()] : undefined;
}

/** Explicit severity word → severity, or undefined when not recognized. */
export function severityFromWord(word: unknown): Severity | undefined {
  return typeof word === 'string' ? SEVERITY_WORDS[word.trim().toLowerCase()] : undefined;
}

/**
 * CVSS score → severity: CRITICAL ≥ 9, HIGH ≥ 7, MEDIUM ≥ 4, LOW > 0, INFO = 0.
 * Scores outside 0..10 are ignored (undefined).
 */
export function severityFromScore(score: number | undefined): Severity | undefined {
  if (score === undefined || !Number.isFinite(score) || score < 0 || score > 10) return undefined;
  if (score >= 9) return 'CRITICAL';
  if (score >= 7) return 'HIGH';
  if (score >= 4) return 'MEDIUM';
  if (score > 0) return 'LOW';
  return 'INFO';
}

const RANK: Readonly<Record<Severity, number>> = {
  CRITICAL: 4,
  HIGH: 3,
  MEDIUM: 2,
  LOW: 1,
  INFO: 0,
};

/** The higher of two severities. */
export function maxSeverity(a: Severity | undefined, b: Severity): Severity {
  return a === undefined || RANK[b] > RANK[a] ? b : a;
}
