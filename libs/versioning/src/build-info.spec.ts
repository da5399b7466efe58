import { buildStamp, formatVersion, isValidVersion, stampBuildInfo } from './build-info';
import { join } from 'node:path';

describe('build info', () => {
  it('stamps BUILD as UTC YYYYMMDDHHMMSS', () => {
    expect(buildStamp(new Date('2026-11-22T03:19:07.123Z'))).toBe('20261122031907');
  });

  it('formats X.Y.BUILD+COMMIT', () => {
    const v = formatVersion('0.1', new Date('2026-01-02T03:04:05Z'), 'abc1234');
    expect(v).toBe('0.1.20260102030405+abc1234');
    expect(isValidVersion(v)).toBe(true);
  });

  it('rejects malformed versions', () => {
    expect(isValidVersion('0.1.2026+abc')).toBe(false);
    expect(isValidVersion('0.1.20260102030405')).toBe(false);
  });

  it('stamps the workspace with its package major.minor and a commit', () => {
    const info = stampBuildInfo(join(__dirname, '../../..'), new Date('2026-01-02T03:04:05Z'));
    expect(info.majorMinor).toMatch(/^\d+\.\d+$/);
    expect(isValidVersion(info.version)).toBe(true);
    expect(info.builtAt).toBe('2026-01-02T03:04:05Z');
  });
});
