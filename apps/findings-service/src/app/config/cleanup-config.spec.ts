import { EnvReader } from '@platform/config';
import { cleanupWarnings, readCleanupConfig } from './cleanup-config';

function read(env: Record<string, string>) {
  const r = new EnvReader(env);
  const config = readCleanupConfig(r);
  r.done();
  return config;
}

describe('readCleanupConfig', () => {
  it('has the spec defaults: 7 / 30 / never / 24 h, real runs, tokens after 30 days', () => {
    expect(read({})).toEqual({
      completedDays: 7,
      failedDays: 30,
      pendingDays: 0,
      orphanHours: 24,
      dryRun: false,
      refreshTokenDays: 30,
      obsoleteSchedule: undefined,
    });
    expect(cleanupWarnings(read({}))).toEqual([]);
  });

  it('reads every variable', () => {
    expect(
      read({
        CLEANUP_RETENTION_COMPLETED_DAYS: '1',
        CLEANUP_RETENTION_FAILED_DAYS: '2',
        CLEANUP_RETENTION_PENDING_DAYS: '3',
        CLEANUP_RETENTION_ORPHAN_HOURS: '4',
        CLEANUP_DRY_RUN: 'true',
        REFRESH_CLEANUP_RETENTION_DAYS: '5',
      }),
    ).toMatchObject({
      completedDays: 1,
      failedDays: 2,
      pendingDays: 3,
      orphanHours: 4,
      dryRun: true,
      refreshTokenDays: 5,
    });
  });

  it.each([
    ['CLEANUP_RETENTION_COMPLETED_DAYS', '0'],
    ['CLEANUP_RETENTION_FAILED_DAYS', '-1'],
    ['CLEANUP_RETENTION_PENDING_DAYS', 'soon'],
    ['CLEANUP_RETENTION_ORPHAN_HOURS', '0'],
    ['CLEANUP_DRY_RUN', 'maybe'],
    ['REFRESH_CLEANUP_RETENTION_DAYS', '0'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => read({ [name]: value })).toThrow(name);
  });

  it('warns that CLEANUP_SCHEDULE is obsolete, and only warns', () => {
    const config = read({ CLEANUP_SCHEDULE: '0 * * * *' });
    expect(cleanupWarnings(config)).toEqual([
      'CLEANUP_SCHEDULE="0 * * * *" is obsolete and ignored: report cleanup runs hourly',
    ]);
  });
});
