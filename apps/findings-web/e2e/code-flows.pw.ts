/**
 * Issue 25, item 6 — the finding page lists what a CodeQL-style result says besides its own
 * location: related locations (the targets of the message's `[text](id)` links) and code flows
 * step by step, each place linked to the file at the report's commit in the product's repository.
 */
import {
  expect as baseExpect,
  expectAccessible,
  signIn,
  test,
  unique,
  webUrl,
} from './support/fixtures';

// Ingestion and page loads on a shared 2-core machine.
test.slow();
const expect = baseExpect.configure({ timeout: 45_000 });

const COMMIT = '5d1c0ffee2b7a9e4c3d2f1a0b9c8d7e6f5a4b3c2';
const REPOSITORY = 'https://git.example.test/acme/ledger';

const at = (uri: string, line: number, text: string) => ({
  physicalLocation: {
    artifactLocation: { uri, uriBaseId: '%SRCROOT%' },
    region: { startLine: line, startColumn: 3, endColumn: 20 },
  },
  message: { text },
});

/** One path-problem result: a request parameter reaches a shell command over three steps. */
function commandInjectionReport(): string {
  return JSON.stringify({
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'CodeQL',
            semanticVersion: '2.19.3',
            rules: [
              {
                id: 'js/command-line-injection',
                shortDescription: { text: 'Uncontrolled command line' },
                defaultConfiguration: { level: 'error' },
              },
            ],
          },
        },
        versionControlProvenance: [{ repositoryUri: REPOSITORY, revisionId: COMMIT }],
        results: [
          {
            ruleId: 'js/command-line-injection',
            message: {
              text: 'This command line depends on a [user-provided value](1) passed through [a helper](2).',
            },
            locations: [at('src/jobs/export.js', 77, 'exec(cmd)')],
            relatedLocations: [
              { id: 1, ...at('src/api/export-route.js', 14, 'req.body.format') },
              { id: 2, ...at('src/lib/shell.js', 5, 'buildCommand') },
            ],
            codeFlows: [
              {
                message: { text: 'through the helper' },
                threadFlows: [
                  {
                    locations: [
                      { location: at('src/api/export-route.js', 14, 'req.body.format') },
                      { location: at('src/lib/shell.js', 5, 'format') },
                      { location: at('src/jobs/export.js', 77, 'cmd') },
                    ],
                  },
                ],
              },
              {
                threadFlows: [
                  {
                    locations: [
                      { location: at('src/api/export-route.js', 15, 'req.query.name') },
                      { location: at('src/jobs/export.js', 77, 'cmd') },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  });
}

test('related locations and code flows are listed, message links go to them, places link to the file at the commit', async ({
  page,
  api,
}) => {
  const project = await api.project(unique('flows'));
  const product = await api.product(project.id, unique('ledger'), REPOSITORY);
  await api.ingest(product.id, commandInjectionReport(), 'codeql-flows.sarif');
  const { items } = await api.get<{ items: { id: string }[] }>(
    `/api/v1/findings?product_id=${product.id}&limit=5`,
  );
  await signIn(page);
  await page.goto(`${webUrl()}/findings/${items[0]?.id ?? ''}`);

  // Related locations, in report order, with their messages and links at the commit.
  const related = page.getByTestId('related-location');
  await expect(related).toHaveCount(2);
  await expect(related.nth(0)).toContainText('src/api/export-route.js:14 — req.body.format');
  await expect(related.nth(1)).toContainText('src/lib/shell.js:5 — buildCommand');
  await expect(related.nth(1).getByTestId('flow-location-link')).toHaveAttribute(
    'href',
    `${REPOSITORY}/blob/${COMMIT}/src/lib/shell.js#L5`,
  );

  // The message's links point at them; following one lands on that location.
  const links = page.getByTestId('message-link');
  await expect(links).toHaveText(['user-provided value', 'a helper']);
  await expect(links.nth(1)).toHaveAttribute('href', '#related-location-2');
  await links.nth(1).click();
  await expect(page).toHaveURL(/#related-location-2$/);
  await expect(page.locator('#related-location-2')).toContainText('src/lib/shell.js:5');
  await expect(page.locator('#related-location-2')).toBeInViewport();

  // Two code flows, their steps in order, each step linked to its file and line.
  const flows = page.getByTestId('code-flow');
  await expect(flows).toHaveCount(2);
  await expect(flows.nth(0)).toContainText('Flow 1: through the helper');
  await expect(flows.nth(0).getByTestId('flow-step')).toHaveText([
    'src/api/export-route.js:14 — req.body.format',
    'src/lib/shell.js:5 — format',
    'src/jobs/export.js:77 — cmd',
  ]);
  await expect(
    flows.nth(0).getByTestId('flow-step').nth(2).getByTestId('flow-location-link'),
  ).toHaveAttribute('href', `${REPOSITORY}/blob/${COMMIT}/src/jobs/export.js#L77`);
  await expect(flows.nth(1).getByTestId('flow-step')).toHaveCount(2);
  await expectAccessible(page, 'finding with related locations and code flows');
});

test('a finding whose report had no flows shows no such sections', async ({ page, api }) => {
  const project = await api.project(unique('no-flows'));
  const product = await api.product(project.id, unique('plain'), REPOSITORY);
  const plain = JSON.parse(commandInjectionReport()) as {
    runs: { results: Record<string, unknown>[] }[];
  };
  const [result] = plain.runs[0]?.results ?? [];
  if (result) {
    delete result.relatedLocations;
    delete result.codeFlows;
  }
  await api.ingest(product.id, JSON.stringify(plain), 'codeql-plain.sarif');
  const { items } = await api.get<{ items: { id: string }[] }>(
    `/api/v1/findings?product_id=${product.id}&limit=5`,
  );
  await signIn(page);
  await page.goto(`${webUrl()}/findings/${items[0]?.id ?? ''}`);
  await expect(page.getByTestId('finding-message')).toContainText('user-provided value');
  await expect(page.getByTestId('message-link')).toHaveCount(0);
  await expect(page.getByTestId('related-locations')).toHaveCount(0);
  await expect(page.getByTestId('code-flows')).toHaveCount(0);
});
