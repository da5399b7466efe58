import { NormalizedFinding } from './normalized-finding';
import { bufferReportSource } from './report-source';
import { readSarif } from './sarif-reader';
import { MAX_CODE_FLOWS, MAX_FLOW_STEPS, MAX_RELATED_LOCATIONS } from './sarif-flows';
import { collect } from './testing/report-fixtures';

/** Related locations and code flows of SARIF results (docs/findings-service/sarif.md). */
const at = (uri: string, line: number, text?: string, base?: string): object => ({
  physicalLocation: {
    artifactLocation: base ? { uri, uriBaseId: base } : { uri },
    region: { startLine: line },
  },
  ...(text === undefined ? {} : { message: { text } }),
});

async function readOne(result: object, run: object = {}): Promise<NormalizedFinding> {
  const text = JSON.stringify({
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'CodeQL',
            rules: [{ id: 'js/sql-injection', messageStrings: { src: { text: 'source {0}' } } }],
          },
        },
        ...run,
        results: [
          {
            ruleId: 'js/sql-injection',
            message: { text: 'This query depends on a [user-provided value](1).' },
            locations: [at('src/db.js', 40)],
            ...result,
          },
        ],
      },
    ],
  });
  const batches = await collect(readSarif(bufferReportSource(text)));
  const [finding] = batches.flatMap((b) => b.findings);
  if (!finding) throw new Error('no finding');
  return finding;
}

describe('SARIF related locations and code flows', () => {
  it('keeps related locations with their id, path, lines and message', async () => {
    const f = await readOne({
      relatedLocations: [
        { id: 1, ...at('SRCROOT/src/routes.js', 12, 'user-provided value', undefined) },
        { id: 'x', ...at('https://app.example/a', 1) },
        { message: { id: 'src', arguments: ['here'] }, logicalLocations: [{ name: 'f' }] },
        { nothing: true },
        'garbage',
      ],
    });
    expect(f.related_locations).toEqual([
      { id: 1, path: 'SRCROOT/src/routes.js', start_line: 12, message: 'user-provided value' },
      { url: 'https://app.example/a', start_line: 1 },
      { logical: 'f', message: 'source here' },
    ]);
  });

  it('resolves related and step paths through uriBaseId as the finding path is', async () => {
    const f = await readOne(
      {
        relatedLocations: [{ id: 2, ...at('lib/x.js', 3, undefined, 'SRC') }],
        codeFlows: [
          { threadFlows: [{ locations: [{ location: at('lib/y.js', 4, 'a', 'SRC') }] }] },
        ],
      },
      { originalUriBaseIds: { SRC: { uri: 'app/' } } },
    );
    expect(f.related_locations).toEqual([{ id: 2, path: 'app/lib/x.js', start_line: 3 }]);
    expect(f.code_flows?.[0].thread_flows[0].steps[0]).toMatchObject({
      step: 1,
      path: 'app/lib/y.js',
    });
  });

  it('keeps code flows with thread flows and numbered steps', async () => {
    const f = await readOne({
      codeFlows: [
        {
          message: { text: 'path 1' },
          threadFlows: [
            {
              locations: [
                { location: at('src/routes.js', 12, 'req.query.id') },
                { index: 3 },
                { location: { ...at('src/db.js', 39, 'id'), region: undefined } },
                { location: at('src/db.js', 40, 'query(...)') },
              ],
            },
          ],
        },
        { threadFlows: [{ locations: [] }] },
      ],
    });
    expect(f.code_flows).toEqual([
      {
        message: 'path 1',
        thread_flows: [
          {
            steps: [
              { step: 1, path: 'src/routes.js', start_line: 12, message: 'req.query.id' },
              { step: 2, path: 'src/db.js', start_line: 39, message: 'id' },
              { step: 3, path: 'src/db.js', start_line: 40, message: 'query(...)' },
            ],
          },
        ],
      },
    ]);
  });

  it('caps related locations, flows and steps per flow', async () => {
    const many = (n: number): object[] =>
      Array.from({ length: n }, (_, i) => ({ id: i, ...at(`f${i}.js`, i + 1) }));
    const steps = Array.from({ length: 150 }, (_, i) => ({ location: at(`s${i}.js`, 1) }));
    const f = await readOne({
      relatedLocations: many(MAX_RELATED_LOCATIONS + 20),
      codeFlows: Array.from({ length: MAX_CODE_FLOWS + 5 }, () => ({
        threadFlows: [{ locations: steps.slice(0, 60) }, { locations: steps.slice(60) }],
      })),
    });
    expect(f.related_locations).toHaveLength(MAX_RELATED_LOCATIONS);
    expect(f.related_locations?.at(-1)?.id).toBe(MAX_RELATED_LOCATIONS - 1);
    expect(f.code_flows).toHaveLength(MAX_CODE_FLOWS);
    const [first] = f.code_flows ?? [];
    expect(first.thread_flows.map((t) => t.steps.length)).toEqual([60, MAX_FLOW_STEPS - 60]);
    expect(first.thread_flows[1].steps[0]).toMatchObject({ step: 1, path: 's60.js' });
  });

  it('sets neither field for a result without them', async () => {
    const f = await readOne({});
    expect(f).not.toHaveProperty('related_locations');
    expect(f).not.toHaveProperty('code_flows');
  });
});
