import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeControlCharacters } from './control-characters';

const ROOT = join(__dirname, '../../..');

/** A message forging a second line of the service's own, with a terminal colour escape. */
const FORGED =
  'plugin says hi\n{"level":30,"time":"2026-01-01T00:00:00.000Z","msg":"admin password changed"}\r\u001b[31mred\u2028end';

/** Runs a process that logs the forged message through `createProcessLogger(settings)`. */
function logForged(settings: string): string {
  const script = `
    const { createProcessLogger } = require('./libs/logging/src/nest/process-logger');
    const logger = createProcessLogger(${settings});
    logger.warn({ plugin_id: 'p-1', source: 'plugin' }, ${JSON.stringify(FORGED)});
    logger.info('quoted: %s', ${JSON.stringify('a\nb')});
    logger.error({ err: new Error(${JSON.stringify(FORGED)}) }, 'plugin failed');
    logger.flush();
    setTimeout(() => process.exit(0), 500);
  `;
  const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, SWC_NODE_PROJECT: 'tools/test/swc-node-project.json' },
    encoding: 'utf8',
  });
  expect(run.status).toBe(0);
  return run.stdout;
}

interface JsonLine {
  msg: string;
  err?: { message: string; stack: string };
}

/** Every line of a JSON sink's output parses, and the forged text is one escaped message. */
function expectJsonSink(text: string): void {
  const lines = text.trim().split('\n');
  expect(lines).toHaveLength(3);
  const parsed = lines.map((l) => JSON.parse(l) as JsonLine);
  expect(parsed[0]?.msg).toBe(escapeControlCharacters(FORGED));
  expect(parsed[0]?.msg).not.toMatch(/[\n\r\u2028]/);
  expect(parsed[0]?.msg).not.toContain(String.fromCharCode(0x1b));
  expect(parsed[1]?.msg).toBe('quoted: a\\nb');
  // An error's text is escaped too, in its message and in its stack's header; the frames
  // follow on their own lines as before.
  const err = parsed[2]?.err;
  expect(err?.message).toBe(escapeControlCharacters(FORGED));
  const [header, ...frames] = (err?.stack ?? '').split('\n');
  expect(header).toBe(`Error: ${escapeControlCharacters(FORGED)}`);
  expect(frames.length).toBeGreaterThan(0);
  for (const frame of frames) expect(frame).toMatch(/^\s+at /);
}

describe('control characters in log lines', () => {
  it('escapes them as text', () => {
    expect(escapeControlCharacters('a\nb\r\tc\u0000\u001b[0m\u007f\u0085\u2029\\n')).toBe(
      'a\\nb\\r\\tc\\u0000\\u001b[0m\\u007f\\u0085\\u2029\\n',
    );
  });

  it('cannot forge a line in the pretty sink', () => {
    const out = logForged("{ level: 'info', json: false }");
    const lines = out.trim().split('\n');
    expect(lines[0]).toContain('plugin says hi\\n{"level":30');
    expect(lines[0]).toContain('\\r\\u001b[31mred\\u2028end');
    expect(lines[1]).toContain('quoted: a\\nb');
    expect(lines[2]).toContain('plugin failed');
    // The forged line never starts a line of its own (the error's message and stack header
    // included: pino-pretty prints an error over several lines), and the only escapes are
    // the sink's own colours, never the forged one.
    const forgedLines = lines.filter((line) => line.includes('admin password changed'));
    expect(forgedLines.length).toBeGreaterThanOrEqual(3);
    // (pino-pretty prints the error's fields as JSON: the escape's backslash is doubled there)
    for (const line of forgedLines) expect(line).toMatch(/plugin says hi(\\)+n\{/);
    expect(out).not.toContain('\u001b[31mred');
    expect(out).not.toMatch(/[\r\u2028]/);
  });

  it('cannot forge a line in the JSON sink', () => {
    expectJsonSink(logForged("{ level: 'info', json: true }"));
  });

  it('cannot forge a line in the file sink', () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-control-'));
    try {
      logForged(
        `{ level: 'info', json: true, fileSink: { directory: ${JSON.stringify(dir)}, fileName: 'svc.log' } }`,
      );
      const files = readdirSync(dir).filter((name) => name.endsWith('.log'));
      expect(files).toHaveLength(1);
      expectJsonSink(readFileSync(join(dir, files[0] as string), 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
