import { asArray, asRecord, asString } from './json-value';
import { Severity } from './normalized-finding';
import { maxSeverity } from './severity';

/** Legacy SonarQube severity (issue `severity`, generic-import `severity`). */
export const SONAR_LEGACY_SEVERITY: Readonly<Record<string, Severity>> = {
  BLOCKER: 'CRITICAL',
  CRITICAL: 'HIGH',
  MAJOR: 'MEDIUM',
  MINOR: 'LOW',
  INFO: 'INFO',
};

/** Software-quality impact severity (SonarQube 10.2+; BLOCKER/INFO since 10.8). */
export const SONAR_IMPACT_SEVERITY: Readonly<Record<string, Severity>> = {
  BLOCKER: 'CRITICAL',
  HIGH: 'HIGH',
  MEDIUM: 'MEDIUM',
  LOW: 'LOW',
  INFO: 'INFO',
};

/** Security hotspot `vulnerabilityProbability`. */
export const SONAR_HOTSPOT_SEVERITY: Readonly<Record<string, Severity>> = {
  HIGH: 'HIGH',
  MEDIUM: 'MEDIUM',
  LOW: 'LOW',
};

function lookup(table: Readonly<Record<string, Severity>>, value: unknown): Severity | undefined {
  const word = asString(value)?.toUpperCase();
  return word === undefined ? undefined : table[word];
}

export function sonarLegacySeverity(value: unknown): Severity | undefined {
  return lookup(SONAR_LEGACY_SEVERITY, value);
}

export function sonarHotspotSeverity(value: unknown): Severity | undefined {
  return lookup(SONAR_HOTSPOT_SEVERITY, value);
}

/** Highest severity among `impacts[]`, or undefined when there is none. */
export function sonarImpactSeverity(impacts: unknown): Severity | undefined {
  let out: Severity | undefined;
  for (const impact of asArray(impacts)) {
    const severity = lookup(SONAR_IMPACT_SEVERITY, asRecord(impact)?.severity);
    if (severity) out = maxSeverity(out, severity);
  }
  return out;
}
