import type { InvokeResult } from '@platform/plugin-protocol';
import { MAX_ANSWER_BYTES, limitAnswer } from './answer-limit';

const ok = (value: unknown): InvokeResult => ({
  ok: true,
  value_json: JSON.stringify(value),
  error_code: '',
  error_message: '',
  error_detail_json: '',
  duration_ms: 5,
});

const failed = (message: string, detail: unknown): InvokeResult => ({
  ok: false,
  value_json: '',
  error_code: 'plugin_error',
  error_message: message,
  error_detail_json: JSON.stringify(detail),
  duration_ms: 5,
});

describe('the size limit of a plugin answer', () => {
  it('passes an answer that fits unchanged', () => {
    const small = ok([{ key: 'a', value: 'b' }]);
    expect(limitAnswer(small)).toBe(small);
    const error = failed('no', [{ setting: 'a', message: 'b' }]);
    expect(limitAnswer(error)).toBe(error);
  });

  it('turns an ok answer over the limit into answer_too_large (with its size)', () => {
    const huge = ok([{ key: 'a', value: 'x'.repeat(MAX_ANSWER_BYTES) }]);
    const limited = limitAnswer(huge);
    expect(limited).toMatchObject({ ok: false, value_json: '', error_code: 'answer_too_large' });
    expect(JSON.parse(limited.error_detail_json)).toEqual({
      bytes: huge.value_json.length,
      max_bytes: MAX_ANSWER_BYTES,
    });
  });

  it('keeps the first items of a list detail that fit, with the total', () => {
    const problems = Array.from({ length: 10_000 }, (_, i) => ({
      setting: 'a',
      message: `${i} ${'x'.repeat(600)}`,
    }));
    const limited = limitAnswer(failed('refused', problems), 100_000);
    expect(limited.error_code).toBe('plugin_error');
    const detail = JSON.parse(limited.error_detail_json) as {
      truncated: boolean;
      total: number;
      items: { message: string }[];
    };
    expect(detail.truncated).toBe(true);
    expect(detail.total).toBe(10_000);
    expect(detail.items.length).toBeGreaterThan(100);
    expect(detail.items.length).toBeLessThan(200);
    expect(detail.items[0]?.message.startsWith('0 ')).toBe(true);
    expect(
      Buffer.byteLength(limited.error_message + limited.error_detail_json),
    ).toBeLessThanOrEqual(100_000);
  });

  it('cuts a huge message UTF-8 safely and summarizes a detail that is no list', () => {
    const limited = limitAnswer(failed('é'.repeat(3_000_000), { text: 'y'.repeat(2_000_000) }));
    expect(limited.error_message.endsWith(' [cut]')).toBe(true);
    expect(Buffer.byteLength(limited.error_message)).toBeLessThanOrEqual(8 * 1024);
    expect(limited.error_message).not.toContain('\uFFFD');
    expect(JSON.parse(limited.error_detail_json)).toEqual({
      truncated: true,
      bytes: 2_000_011,
    });
  });
});
