import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { REPOSITORY_ROOT, type ServiceProcess } from '@platform/testing';
import {
  BUILD_TIMEOUT_MS,
  RUNNER_TOKEN,
  startRunnerProcess,
} from '../catalog-plugins/support/catalog-plugin-lab';
import { withDb } from '../support/findings-db';
import { freshProduct, seedFindings } from '../support/findings-seed';
import { loginAdmin } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const run = promisify(execFile);
// A componentize-js build, a runner process and the API on a shared 2-core machine.
jest.setTimeout(3 * BUILD_TIMEOUT_MS);

const QUICK_START = join(REPOSITORY_ROOT, 'docs/plugins/quick-start.md');

interface Block {
  lang: string;
  file?: string;
  body: string;
}

/** The fenced code blocks of a markdown page, with their `file=NAME` attribute. */
function codeBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const file = /\bfile=(\S+)/.exec(match[2] ?? '')?.[1];
    blocks.push({ lang: match[1] ?? '', file, body: match[3] ?? '' });
  }
  return blocks;
}

/**
 * docs/plugins/quick-start.md, run as written: its `file=` blocks are the plugin's files, its
 * `sh` blocks run in order in one bash from the repository root — openssl makes the publisher
 * key, the SDK's build command builds and signs, curl sideloads, configures, enables, enriches
 * a finding and uninstalls, against a real API and a real plugin runner. The page cannot
 * promise what the platform does not do.
 */
describe('The plugin quick start (docs/plugins/quick-start.md), as written', () => {
  let t: TestApp;
  let runner: ServiceProcess | undefined;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'quick-start-'));
    const started = await startRunnerProcess();
    runner = started.runner;
    t = await startTestApp({
      PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
      PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
    });
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await t?.close();
    await runner?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('builds, signs, installs and enriches a finding; then uninstalls', async () => {
    const blocks = codeBlocks(await readFile(QUICK_START, 'utf8'));
    const files = blocks.filter((b) => b.file !== undefined);
    const shell = blocks.filter((b) => b.lang === 'sh');
    // What the page must hold, so that a renamed fence cannot make this test run nothing.
    expect(files.map((b) => b.file)).toEqual(['manifest.json', 'index.js']);
    expect(shell.length).toBeGreaterThanOrEqual(4);

    const pluginDir = join(work, 'quick-start-enricher');
    for (const block of files) {
      const path = join(pluginDir, block.file as string);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, block.body);
    }

    const admin = await loginAdmin(t);
    const product = await freshProduct(t, admin);
    const [findingId] = await seedFindings(t, product, [
      { severity: 'HIGH', cve: 'CVE-2024-3094', ip: '10.1.2.3' },
    ]);

    const script = ['set -euo pipefail', ...shell.map((b) => b.body)].join('\n');
    const { stdout } = await run('bash', ['-c', script], {
      cwd: REPOSITORY_ROOT,
      timeout: 2 * BUILD_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: work,
        PLUGIN_DIR: pluginDir,
        FINDINGS_URL: t.url,
        TOKEN: admin.token,
        FINDING_ID: findingId,
      },
    });

    // Built and signed: the three files of the build.
    expect(stdout).toMatch(/component\.wasm\s+manifest\.json\s+manifest\.sig/);
    const pluginId = /installed ([0-9a-f-]{36})/.exec(stdout)?.[1];
    expect(pluginId).toBeDefined();

    // The enrichment answer, as the page shows it: the plugin's tags on the finding, and the
    // is-cve-known failure handled (not wired yet: unavailable -> "unknown").
    const answerLine = stdout.split('\n').find((line) => line.startsWith('{"data"'));
    const answer = JSON.parse(answerLine ?? '{}') as {
      data: { finding_id: string; plugin_id: string; enrichment_tags: string[] };
    };
    expect(answer.data).toMatchObject({ finding_id: findingId, plugin_id: pluginId });
    expect(answer.data.enrichment_tags).toEqual([
      'bucket:urgent',
      'cve-known:unknown',
      'team:blue',
    ]);
    const stored = await withDb(t, (db) =>
      db.query<{ enrichment_tags: string[] }>(
        `SELECT enrichment_tags FROM findings WHERE id = $1`,
        [findingId],
      ),
    );
    expect(stored.rows[0]?.enrichment_tags).toEqual([
      'bucket:urgent',
      'cve-known:unknown',
      'team:blue',
    ]);

    // The plugin's own log lines reached the runner's log, with its id.
    const pluginLines = (runner as ServiceProcess)
      .jsonLines()
      .filter((l) => l['source'] === 'plugin' && l['plugin_id'] === pluginId)
      .map((l) => l['msg']);
    expect(pluginLines).toContain(`enriched ${findingId} with 3 tags`);

    // And uninstalled, as the page's last block does.
    expect(stdout).toContain('uninstalled: 204');
    const left = await withDb(t, (db) =>
      db.query(`SELECT 1 FROM installed_plugins WHERE id = $1`, [pluginId]),
    );
    expect(left.rows).toEqual([]);
  });
});
