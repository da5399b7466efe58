import { randomBytes } from 'node:crypto';

const processRunId = randomBytes(4).toString('hex');

/** Lowercase letters, digits and `_` only, at most `max` characters: safe in identifiers. */
export function identifierPart(value: string, max: number): string {
  const cleaned = value
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (cleaned || 'x').slice(0, max);
}

/**
 * Identifies one test run. `tools/test.sh` sets TEST_RUN_ID for all Jest workers so they
 * share one template database per service; without it each process uses its own id.
 */
export function testRunId(): string {
  return identifierPart(process.env.TEST_RUN_ID ?? processRunId, 24);
}

export function randomSuffix(): string {
  return randomBytes(5).toString('hex');
}
