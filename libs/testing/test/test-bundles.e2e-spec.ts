import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

const WORKSPACE = join(__dirname, '../../..');
const bundles = require(join(WORKSPACE, 'tools/test/bundles.js')) as {
  planBundles(projectRoot: string, durations: Record<string, number>): string[][];
  bundledProject(config: Record<string, unknown>, lane?: string): Record<string, unknown>;
  partsOf(bundleFile: string): string[];
};
const lanes = require(join(WORKSPACE, 'tools/test/lanes.js')) as {
  waitingFilesOf(projectRoot: string): string[];
  waitingFiles(root: string): string[];
};

/** A project of e2e files under the workspace's ignored tmp/ (Jest resolves its transform there). */
function project(files: Record<string, string>): string {
  mkdirSync(join(WORKSPACE, 'tmp'), { recursive: true });
  const root = mkdtempSync(join(WORKSPACE, 'tmp', 'bundles-'));
  for (const [name, source] of Object.entries(files)) {
    mkdirSync(join(root, 'test', name, '..'), { recursive: true });
    writeFileSync(join(root, 'test', name), source);
  }
  return root;
}

const rel = (root: string, name: string) => relative(WORKSPACE, join(root, 'test', name));

describe('e2e files in bundles (tools/test/bundles.js)', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it('keeps alone what could leak into the next file, and long files; groups the rest by budget', () => {
    const plain = "it('works', () => expect(1).toBe(1));\n";
    const root = project({
      'a/one.e2e-spec.ts': plain,
      'a/two.e2e-spec.ts': plain,
      'a/mocks.e2e-spec.ts': `jest.mock('node:fs');\n${plain}`,
      'b/env.e2e-spec.ts': `process.env.SOME_FLAG = '1';\n${plain}`,
      'b/env-index.e2e-spec.ts': `process.env['SOME_FLAG'] = '1';\n${plain}`,
      'b/listener.e2e-spec.ts': `process.on('exit', () => undefined);\n${plain}`,
      'b/timeout.e2e-spec.ts': `jest.setTimeout(1000);\n${plain}`,
      'b/marked.e2e-spec.ts': `// test-bundle: alone\n// (why)\n${plain}`,
      'b/reads-env.e2e-spec.ts': `const x = process.env.SOME_FLAG === '1';\n${plain}`,
      'c/long.e2e-spec.ts': plain,
      'c/three.e2e-spec.ts': plain,
      'c/four.e2e-spec.ts': plain,
      'c/five.e2e-spec.ts': plain,
      'c/six.e2e-spec.ts': plain,
      'c/seven.e2e-spec.ts': plain,
    });
    roots.push(root);
    const durations = {
      [rel(root, 'c/long.e2e-spec.ts')]: 40,
      [rel(root, 'c/three.e2e-spec.ts')]: 24,
      [rel(root, 'c/four.e2e-spec.ts')]: 24,
      [rel(root, 'c/five.e2e-spec.ts')]: 3,
      [rel(root, 'c/six.e2e-spec.ts')]: 24,
      [rel(root, 'c/seven.e2e-spec.ts')]: 24,
    };
    const plan = bundles
      .planBundles(root, durations)
      .map((files) => files.map((file) => relative(join(root, 'test'), file)));
    // Path order; 100 s a bundle (unlisted files count 4 s): one, two, reads-env, timeout (its
    // jest.setTimeout is its own in a bundle), five, four, seven, six (4 + 4 + 4 + 4 + 3 + 24 +
    // 24 + 24 = 91), then three (24) alone — a bundle of one is no bundle.
    expect(plan).toEqual([
      [
        'a/one.e2e-spec.ts',
        'a/two.e2e-spec.ts',
        'b/reads-env.e2e-spec.ts',
        'b/timeout.e2e-spec.ts',
        'c/five.e2e-spec.ts',
        'c/four.e2e-spec.ts',
        'c/seven.e2e-spec.ts',
        'c/six.e2e-spec.ts',
      ],
    ]);
  });

  it("the main run leaves the waiting lane's files out of its bundles and its files; the lane lists them", () => {
    const plain = "it('works', () => expect(1).toBe(1));\n";
    const root = project({
      'one.e2e-spec.ts': plain,
      'two.e2e-spec.ts': plain,
      'waits.e2e-spec.ts': `// Some words first.\n// test-lane: waiting — a lease runs out\n\n${plain}`,
      // The mark only counts among the comments a file starts with.
      'mentions.e2e-spec.ts': `const note = \`\n// test-lane: waiting\n\`;\n${plain}`,
      'late.e2e-spec.ts': `${plain}// test-lane: waiting\n`,
    });
    roots.push(root);
    const waits = join(root, 'test', 'waits.e2e-spec.ts');
    expect(lanes.waitingFilesOf(root)).toEqual([waits]);
    const base = { testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], rootDir: root };
    const bundled = (lane?: string) => {
      const config = bundles.bundledProject(base, lane) as { testPathIgnorePatterns: string[] };
      const dir = join(root, 'test', '__bundles__');
      const parts = readdirSync(dir).flatMap((name) => bundles.partsOf(join(dir, name)));
      return {
        parts: parts.map((file) => relative(join(root, 'test'), join(WORKSPACE, file))),
        config,
      };
    };
    const main = bundled('main');
    expect(main.parts.sort()).toEqual([
      'late.e2e-spec.ts',
      'mentions.e2e-spec.ts',
      'one.e2e-spec.ts',
      'two.e2e-spec.ts',
    ]);
    expect(
      main.config.testPathIgnorePatterns.filter((p) => new RegExp(p).test(waits)),
    ).toHaveLength(1);
    // Outside the main run (no lane: `TEST_WAIT_LANE=0`) the file is bundled like any other.
    // ('' and not undefined: undefined would read TEST_LANE, which is `main` inside `npm test`.)
    const alone = bundled('');
    expect(alone.parts).toContain('waits.e2e-spec.ts');
    expect(
      alone.config.testPathIgnorePatterns.filter((p) => new RegExp(p).test(waits)),
    ).toHaveLength(1);
    // The workspace's list (tools/test.sh runs it as the lane) names files relative to the root.
    expect(lanes.waitingFiles(WORKSPACE)).toEqual(
      expect.arrayContaining([
        'apps/findings-service/test/notifications/catalog-channels.e2e-spec.ts',
      ]),
    );
    expect(lanes.waitingFiles(WORKSPACE).every((file) => !file.startsWith('/'))).toBe(true);
  });

  it('runs each file of a bundle in its own scope, once, and records its time', async () => {
    // first: top-level hooks (they must stay its own); second: sees none of them.
    // timeout-own sets a 300 ms time-out: its own tests run with it, the files before and after
    // it with the default (60 s) — jest-circus reads jest.setTimeout once, at the run's start.
    const wait = (ms: number) => `new Promise((resolve) => setTimeout(resolve, ${ms}))`;
    const root = project({
      'a-before-timeout.e2e-spec.ts': `it('runs with the default time-out', () => ${wait(900)});\n`,
      'first.e2e-spec.ts': `
        let before = 0;
        beforeAll(() => { (globalThis as any).firstOpen = true; });
        beforeEach(() => { before++; (globalThis as any).firstEach = ((globalThis as any).firstEach ?? 0) + 1; });
        afterAll(() => { (globalThis as any).firstOpen = false; });
        it('has its own hooks', () => { expect((globalThis as any).firstOpen).toBe(true); expect(before).toBe(1); });
        it('still its own', () => expect(before).toBe(2));
      `,
      'second.e2e-spec.ts': `
        it('runs after the first closed, without its beforeEach', () => {
          expect((globalThis as any).firstOpen).toBe(false);
          expect((globalThis as any).firstEach).toBe(2);
        });
      `,
      'third.e2e-spec.ts': `it('fails by its own name', () => expect('third').toBe('other'));\n`,
      'timeout-own.e2e-spec.ts': `
        jest.setTimeout(300);
        it('runs within its own time-out', () => ${wait(50)});
        it('fails past its own time-out', () => ${wait(900)});
      `,
      'u-after-timeout.e2e-spec.ts': `it('runs with the default time-out again', () => ${wait(900)});\n`,
    });
    roots.push(root);
    const config = bundles.bundledProject({
      ...(require(join(WORKSPACE, 'jest.preset.js')) as Record<string, unknown>),
      displayName: 'bundles-probe',
      rootDir: root,
    });
    expect(readdirSync(join(root, 'test', '__bundles__'))).toEqual(['bundle-01.e2e-bundle.js']);
    const configFile = join(root, 'jest.config.js');
    writeFileSync(configFile, `module.exports = ${JSON.stringify(config)};\n`);
    const partTimes = join(root, 'part-times.jsonl');
    const jest = join(WORKSPACE, 'node_modules/jest/bin/jest.js');
    const run = await promisify(execFile)(
      process.execPath,
      [jest, '-c', configFile, '--ci', '--json', '-i', '--rootDir', root],
      { cwd: WORKSPACE, env: { ...process.env, TEST_PART_TIMES: partTimes } },
    ).catch((error: { stdout: string }) => error);
    const report = JSON.parse(run.stdout) as {
      numTotalTests: number;
      numFailedTests: number;
      testResults: {
        name: string;
        assertionResults: { ancestorTitles: string[]; title: string; status: string }[];
      }[];
    };
    // One test file (the bundle), each file's tests once, under its path.
    expect(report.testResults.map((r) => relative(root, r.name))).toEqual([
      'test/__bundles__/bundle-01.e2e-bundle.js',
    ]);
    expect(report.numTotalTests).toBe(8);
    const outcomes = report.testResults[0]?.assertionResults.map(
      (a) => `${a.ancestorTitles.join(' > ')} > ${a.title}: ${a.status}`,
    );
    expect(outcomes).toEqual([
      `${rel(root, 'a-before-timeout.e2e-spec.ts')} > runs with the default time-out: passed`,
      `${rel(root, 'first.e2e-spec.ts')} > has its own hooks: passed`,
      `${rel(root, 'first.e2e-spec.ts')} > still its own: passed`,
      `${rel(root, 'second.e2e-spec.ts')} > runs after the first closed, without its beforeEach: passed`,
      `${rel(root, 'third.e2e-spec.ts')} > fails by its own name: failed`,
      `${rel(root, 'timeout-own.e2e-spec.ts')} > runs within its own time-out: passed`,
      `${rel(root, 'timeout-own.e2e-spec.ts')} > fails past its own time-out: failed`,
      `${rel(root, 'u-after-timeout.e2e-spec.ts')} > runs with the default time-out again: passed`,
    ]);
    const times = readFileSync(partTimes, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as [string, number]);
    expect(times.map(([file]) => file)).toEqual(
      ['a-before-timeout', 'first', 'second', 'third', 'timeout-own', 'u-after-timeout'].map(
        (name) => rel(root, `${name}.e2e-spec.ts`),
      ),
    );
    for (const [, seconds] of times) expect(seconds).toBeGreaterThanOrEqual(0);
  });
});
