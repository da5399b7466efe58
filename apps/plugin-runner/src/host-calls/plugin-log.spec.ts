import { PluginLogSink, truncateUtf8 } from './plugin-log';
import { SecretScrubber } from '../plugin-host/secret-scrubber';

describe('plugin log lines', () => {
  it('cuts at a byte cap without splitting a character', () => {
    expect(truncateUtf8('short', 64)).toBe('short');
    const cut = truncateUtf8('ж'.repeat(100), 64);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(64);
    expect(cut).toMatch(/^ж+ \[cut\]$/);
    expect(truncateUtf8('😀'.repeat(50), 64)).toMatch(/^(😀)+ \[cut\]$/);
  });

  it('scrubs before cutting, limits the rate per minute and reports dropped lines', () => {
    const written: { fields: Record<string, unknown>; message: string; level: string }[] = [];
    const record =
      (level: string) =>
      (fields: Record<string, unknown>, message: string): void => {
        written.push({ fields, message, level });
      };
    const logger = {
      debug: record('debug'),
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
    };
    let now = 1_000_000;
    const scrubber = new SecretScrubber();
    scrubber.add('TOKEN-1234567890');
    const sink = new PluginLogSink(
      logger as never,
      scrubber,
      { lineMaxBytes: 64, linesPerMinute: 2 },
      () => now,
    );
    const context = { plugin_id: 'p', plugin_version: '1.0.0', project_id: 'a', event_id: 'e' };
    // The secret sits across the cut: scrubbed first, so no half of it survives.
    sink.write(context, 'info', `${'x'.repeat(56)}TOKEN-1234567890`);
    sink.write(context, 'nonsense', 'second');
    sink.write(context, 'error', 'third: over the rate');
    expect(written.map((w) => [w.level, w.message])).toEqual([
      ['info', `${'x'.repeat(56)}[r [cut]`],
      ['info', 'second'],
      ['warn', 'plugin log lines dropped (rate or size cap)'],
    ]);
    expect(written[0].fields).toMatchObject({ ...context, source: 'plugin' });
    expect(written[2].fields).toMatchObject({ dropped_lines: 1 });
    now += 30_000; // half a minute refills one line
    sink.write(context, 'debug', 'fourth');
    expect(written.at(-1)).toMatchObject({ level: 'debug', message: 'fourth' });
  });

  it('escapes control characters before the cut: a plugin cannot forge a runner line', () => {
    const written: string[] = [];
    const logger = { info: (_fields: unknown, message: string) => written.push(message) };
    const sink = new PluginLogSink(logger as never, new SecretScrubber(), {
      lineMaxBytes: 64,
      linesPerMinute: 10,
    });
    const context = { plugin_id: 'p', plugin_version: '1.0.0', project_id: 'a', event_id: 'e' };
    sink.write(context, 'info', 'ok\n{"level":30,"msg":"runner ready"}\r\u001b[2K');
    sink.write(context, 'info', '\n'.repeat(40));
    expect(written[0]).toBe('ok\\n{"level":30,"msg":"runner ready"}\\r\\u001b[2K');
    // 40 line feeds are 80 bytes once escaped: the cap holds for what is written.
    expect(written[1]).toMatch(/^(\\n)+ \[cut\]$/);
    expect(Buffer.byteLength(written[1] ?? '')).toBeLessThanOrEqual(64);
  });
});
