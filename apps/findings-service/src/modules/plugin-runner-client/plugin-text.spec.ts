import type { InvokeResult } from '@platform/plugin-protocol';
import { toResult } from './plugin-runner.client';
import { capPluginText, PLUGIN_TEXT_MAX_BYTES } from './plugin-text';

function failed(message: string): InvokeResult {
  return {
    ok: false,
    value_json: '',
    error_code: 'plugin_error',
    error_message: message,
    error_detail_json: '',
    duration_ms: 3,
  };
}

describe("a plugin's error text in the findings service", () => {
  it('is cut at 2 KB of UTF-8, never inside a character, and marked', () => {
    expect(capPluginText('short')).toBe('short');
    const cut = capPluginText('ж'.repeat(5000));
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(PLUGIN_TEXT_MAX_BYTES);
    expect(cut).toMatch(/^ж+ \[cut\]$/);
    expect(capPluginText('😀'.repeat(1000))).toMatch(/^(😀)+ \[cut\]$/);
  });

  it('a 1 MiB error text of a plugin is at most 2 KB once the client has it, secrets scrubbed first', () => {
    const secret = 'tok-1234567890-secret';
    // The secret straddles the cut: scrubbed before cutting, no half of it survives.
    const message = `${'x'.repeat(2030)}${secret}${'y'.repeat(1024 * 1024)}`;
    const result = toResult(failed(message), new Set([secret]));
    expect(result.ok).toBe(false);
    const text = result.ok ? '' : result.error.message;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PLUGIN_TEXT_MAX_BYTES);
    expect(text.endsWith(' [cut]')).toBe(true);
    expect(text).not.toContain('tok-1234');
  });
});
