import { LEAN_TYPE_PARSERS } from '@platform/database';
import type { DataSource } from 'typeorm';
import { FindingsRepository } from './findings.repository';

/** A data source whose pool records the statements' configs and answers with no rows. */
function recordingDataSource(): { dataSource: DataSource; configs: Record<string, unknown>[] } {
  const configs: Record<string, unknown>[] = [];
  const pool = {
    query: (config: Record<string, unknown>) => {
      configs.push(config);
      return Promise.resolve({ rows: [] });
    },
  };
  const dataSource = {
    driver: { master: pool },
    query: () =>
      Promise.reject(new Error('through TypeORM: the rows would parse with pg defaults')),
  } as unknown as DataSource;
  return { dataSource, configs };
}

describe('FindingsRepository reads', () => {
  it('reads a page and a finding on the pool with the lean date and array parsers', async () => {
    const { dataSource, configs } = recordingDataSource();
    const repository = new FindingsRepository(dataSource);
    await repository.list({
      scope: { all: true },
      filters: {},
      sort: 'created_at',
      order: 'desc',
      fetch: 51,
    });
    await repository.findById('00000000-0000-0000-0000-000000000001');
    expect(configs).toHaveLength(2);
    for (const config of configs) {
      expect(config['types']).toBe(LEAN_TYPE_PARSERS);
      expect(config['text']).toContain('FROM findings f');
    }
    expect(configs[1]?.['values']).toEqual(['00000000-0000-0000-0000-000000000001']);
  });
});
