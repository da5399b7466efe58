/**
 * `2`, `2.4`, `2.4.1`, `2.4.1.7`, optionally with a `-beta.1` or `+build` suffix; at most 64
 * characters in all (the width of every agent version column).
 */
export const AGENT_VERSION_PATTERN =
  /^(?=.{1,64}$)\d{1,9}(\.\d{1,9}){0,3}([-+][0-9A-Za-z.-]{1,40})?$/;

function numericParts(version: string): number[] | null {
  if (!AGENT_VERSION_PATTERN.test(version)) return null;
  const core = version.split(/[-+]/, 1)[0];
  return core.split('.').map(Number);
}

/**
 * Compares dotted agent versions numerically (missing parts count as 0). A pre-release
 * (`2.4.0-beta`) sorts below its release. Null when either is not a version.
 */
export function compareAgentVersions(a: string, b: string): number | null {
  const x = numericParts(a);
  const y = numericParts(b);
  if (!x || !y) return null;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  const preA = a.split('+', 1)[0].includes('-');
  const preB = b.split('+', 1)[0].includes('-');
  return preA === preB ? 0 : preA ? -1 : 1;
}

/** True only when `version` is a version at or above `floor`. */
export function meetsFloor(version: string | undefined, floor: string): boolean {
  if (version === undefined) return false;
  const c = compareAgentVersions(version, floor);
  return c !== null && c >= 0;
}
