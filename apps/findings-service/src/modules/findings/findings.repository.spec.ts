import { LEAN_TYPE_PARSERS } from '@platform/database';
import type { DataSource } from 'typeorm';
import { FindingsRepository } from './findings.repository';

/** A data source whose pool records the statements' configs and answers with `answer`. */
function recordingDataSource(
  answer: { fields: { name: string }[]; rows: unknown[][] } = {
    fields: [],
    rows: [],
  },
): { dataSource: DataSource; configs: Record<string, unknown>[] } {
  const configs: Record<string, unknown>[] = [];
  const pool = {
    query: (config: Record<string, unknown>) => {
      configs.push(config);
      return Promise.resolve(answer);
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
  it('reads a page and a finding on the pool as array rows with the lean parsers', async () => {
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
      expect(config['rowMode']).toBe('array');
      expect(config['text']).toContain('FROM findings f');
    }
    expect(configs[1]?.['values']).toEqual(['00000000-0000-0000-0000-000000000001']);
  });

  it('maps array rows by their column names, wherever the columns stand', async () => {
    const created = new Date('2026-12-02T06:00:00.123Z');
    const columns: Record<string, unknown> = {
      sort_value: '2026-12-02 06:00:00.123+00',
      id: 'f-1',
      title: 'SQL injection',
      severity: 'HIGH',
      tags: ['pci'],
      port: 8443,
      created_at: created,
      assignee_id: null,
      ticket_id: null,
    };
    const { dataSource } = recordingDataSource({
      fields: Object.keys(columns).map((name) => ({ name })),
      rows: [Object.values(columns)],
    });
    const [row] = await new FindingsRepository(dataSource).list({
      scope: { all: true },
      filters: {},
      sort: 'created_at',
      order: 'desc',
      fetch: 51,
    });
    expect(row?.sortValue).toBe('2026-12-02 06:00:00.123+00');
    expect(row?.finding).toMatchObject({
      id: 'f-1',
      title: 'SQL injection',
      severity: 'HIGH',
      tags: ['pci'],
      port: 8443,
      createdAt: created,
      assignee: null,
      ticket: null,
      ruleName: null,
    });
  });
});
