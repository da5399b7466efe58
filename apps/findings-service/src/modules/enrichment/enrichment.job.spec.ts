import { ENRICH_FINDINGS } from './enrichment.job';

const ID = '11111111-1111-4111-8111-111111111111';

describe('enrich-findings job payload', () => {
  it('accepts a valid payload and returns only its fields', () => {
    expect(
      ENRICH_FINDINGS.parse({
        installedPluginId: ID,
        projectId: ID,
        findingIds: [ID],
        trigger: 'report',
        reportId: ID,
        extra: 'dropped',
      }),
    ).toEqual({
      installedPluginId: ID,
      projectId: ID,
      findingIds: [ID],
      trigger: 'report',
      reportId: ID,
    });
  });

  it.each([
    ['no object', null],
    [
      'a plugin id that is not a UUID',
      { installedPluginId: 'x', projectId: ID, findingIds: [ID], trigger: 'report' },
    ],
    ['no findings', { installedPluginId: ID, projectId: ID, findingIds: [], trigger: 'report' }],
    [
      'a finding id that is not a UUID',
      { installedPluginId: ID, projectId: ID, findingIds: ['1'], trigger: 'report' },
    ],
    [
      'too many findings',
      {
        installedPluginId: ID,
        projectId: ID,
        findingIds: Array(10_001).fill(ID),
        trigger: 'report',
      },
    ],
    [
      'an unknown trigger',
      { installedPluginId: ID, projectId: ID, findingIds: [ID], trigger: 'cron' },
    ],
  ])('refuses %s', (_what, data) => {
    expect(() => ENRICH_FINDINGS.parse(data)).toThrow(/enrich-findings/);
  });
});
