import { Registry } from 'prom-client';
import {
  PLUGIN_ANSWER_REFUSALS_METRIC,
  answerRefusalOf,
  pluginAnswerRefusals,
  shownPluginText,
} from './plugin-answer-refusals';
import { scrubSecrets } from './plugin-runner.client';

describe('refused plugin answers', () => {
  it('reads the runner’s answer_too_large and the SDK guard’s invalid_answer, nothing else', () => {
    expect(
      answerRefusalOf({
        ok: false,
        error: { code: 'answer_too_large', message: 'the plugin answered 5 MB' },
        durationMs: 1,
      }),
    ).toEqual({ reason: 'answer_too_large', problem: 'the plugin answered 5 MB' });
    const guard = 'invalid_answer: enrich must return a list of {key, value} tags, not a number';
    expect(
      answerRefusalOf({
        ok: false,
        error: { code: 'plugin_error', message: guard, detail: guard },
        durationMs: 1,
      }),
    ).toEqual({
      reason: 'invalid_answer',
      problem: 'enrich must return a list of {key, value} tags, not a number',
    });
    expect(
      answerRefusalOf({
        ok: false,
        error: { code: 'plugin_error', message: 'cmdb down', detail: 'cmdb down' },
        durationMs: 1,
      }),
    ).toBeUndefined();
    expect(answerRefusalOf({ ok: true, value: [], durationMs: 1 })).toBeUndefined();
  });

  it('counts by plugin and reason on one counter per registry', async () => {
    const registry = new Registry();
    pluginAnswerRefusals(registry).count('p1', 'invalid_answer');
    pluginAnswerRefusals(registry).count('p1', 'invalid_answer');
    pluginAnswerRefusals(registry).count('p2', 'answer_too_large');
    const counter = registry.getSingleMetric(PLUGIN_ANSWER_REFUSALS_METRIC);
    expect(counter).toBeDefined();
    const metric = await counter?.get();
    expect(metric?.values.map(({ labels, value }) => ({ labels, value }))).toEqual([
      { labels: { plugin: 'p1', reason: 'invalid_answer' }, value: 2 },
      { labels: { plugin: 'p2', reason: 'answer_too_large' }, value: 1 },
    ]);
  });

  it('shows plugin text without NUL or lone surrogates, cut without splitting a pair', () => {
    expect(shownPluginText('a\u0000b\uD800c\uDC00', 100)).toBe('a\uFFFDb\uFFFDc\uFFFD');
    expect(shownPluginText('ab\u{1F600}', 3)).toBe('ab');
    expect(shownPluginText('ok', 100)).toBe('ok');
  });

  it('scrubs every secret value (longest first) from strings and keys at any depth', () => {
    expect(
      scrubSecrets({ 'k-s3cr3t': [{ value: 'x s3cr3t-long y s3cr3t' }], n: 4, none: null }, [
        's3cr3t',
        's3cr3t-long',
        '',
      ]),
    ).toEqual({ 'k-[redacted]': [{ value: 'x [redacted] y [redacted]' }], n: 4, none: null });
    const same = { a: 'b' };
    expect(scrubSecrets(same, [])).toBe(same);
  });
});
