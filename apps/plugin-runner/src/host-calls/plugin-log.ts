import { escapeControlCharacters } from '@platform/logging';
import type { Logger } from 'pino';
import type { SecretScrubber } from '../plugin-host/secret-scrubber';

export interface PluginLogLimits {
  /** A longer line is cut at this many UTF-8 bytes (and marked). */
  lineMaxBytes: number;
  /** Lines per minute per plugin (a token bucket); the rest are dropped and counted. */
  linesPerMinute: number;
}

export type PluginLogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: readonly string[] = ['debug', 'info', 'warn', 'error'];

/** Fields of a plugin's log line that the runner sets (never the plugin). */
export interface PluginLogContext {
  plugin_id: string;
  plugin_version: string;
  project_id: string;
  event_id: string;
}

/**
 * The `log` host call of one plugin: every line scrubbed of the plugin's secret values, its
 * control characters escaped, cut at the size cap, and limited in rate; dropped lines are
 * reported once a minute at most.
 */
export class PluginLogSink {
  private tokens: number;
  private refilledAt: number;
  private dropped = 0;
  private droppedReportedAt = 0;

  constructor(
    private readonly logger: Logger,
    private readonly scrubber: SecretScrubber,
    private readonly limits: PluginLogLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limits.linesPerMinute;
    this.refilledAt = now();
  }

  write(context: PluginLogContext, level: string, message: string): void {
    if (!this.take()) {
      this.countDropped(context, 1);
      return;
    }
    // Scrub before cutting: a cut could leave a secret's first half that no longer matches.
    // Control characters are escaped before the cut too, so the cap holds for what is shown:
    // a `\n` in a plugin's line cannot start a line that looks like the runner's own.
    const text = truncateUtf8(
      escapeControlCharacters(this.scrubber.scrub(message)),
      this.limits.lineMaxBytes,
    );
    const pinoLevel = (LEVELS.includes(level) ? level : 'info') as PluginLogLevel;
    this.logger[pinoLevel]({ ...context, source: 'plugin' }, text);
  }

  /** Lines the sandbox dropped before they reached the sink (its own per-call cap). */
  countDropped(context: PluginLogContext, lines: number): void {
    if (lines <= 0) return;
    this.dropped += lines;
    const now = this.now();
    if (now - this.droppedReportedAt >= 60_000) {
      this.logger.warn(
        { ...context, dropped_lines: this.dropped },
        'plugin log lines dropped (rate or size cap)',
      );
      this.dropped = 0;
      this.droppedReportedAt = now;
    }
  }

  private take(): boolean {
    const now = this.now();
    const perMs = this.limits.linesPerMinute / 60_000;
    this.tokens = Math.min(
      this.limits.linesPerMinute,
      this.tokens + (now - this.refilledAt) * perMs,
    );
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

const CUT_MARK = ' [cut]';

/** `text` cut to at most `maxBytes` UTF-8 bytes (never inside a character), marked when cut. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const budget = Math.max(0, maxBytes - CUT_MARK.length);
  const bytes = Buffer.from(text, 'utf8').subarray(0, budget);
  // Drop a partial character at the end (continuation bytes 10xxxxxx and their lead byte).
  let end = bytes.length;
  let back = end - 1;
  while (back >= 0 && (bytes[back] & 0xc0) === 0x80) back--;
  if (back >= 0) {
    const lead = bytes[back];
    const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (back + size > end) end = back;
  }
  return bytes.subarray(0, end).toString('utf8') + CUT_MARK;
}
