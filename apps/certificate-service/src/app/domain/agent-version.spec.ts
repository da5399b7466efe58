import { AGENT_VERSION_PATTERN, compareAgentVersions, meetsFloor } from './agent-version';

describe('agent versions', () => {
  it('compares numerically, not as text', () => {
    expect(compareAgentVersions('2.10.0', '2.9.9')).toBe(1);
    expect(compareAgentVersions('2.4', '2.4.0')).toBe(0);
    expect(compareAgentVersions('1.0.0', '1.0.1')).toBe(-1);
  });

  it('places pre-releases below the release', () => {
    expect(compareAgentVersions('2.4.0-beta.1', '2.4.0')).toBe(-1);
  });

  it('refuses a version longer than the 64 characters its columns hold', () => {
    const long = `123456789.123456789.123456789.123456789-${'a'.repeat(24)}`;
    expect(long).toHaveLength(64);
    expect(AGENT_VERSION_PATTERN.test(long)).toBe(true);
    expect(AGENT_VERSION_PATTERN.test(`${long}a`)).toBe(false);
    expect(compareAgentVersions(`${long}a`, '1.0.0')).toBeNull();
  });

  it('never lets a missing or malformed version pass a floor', () => {
    expect(meetsFloor(undefined, '1.0.0')).toBe(false);
    expect(meetsFloor('latest', '1.0.0')).toBe(false);
    expect(meetsFloor('2.0.0', '1.9.9')).toBe(true);
  });
});
