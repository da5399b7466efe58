/** What a scrubbed secret value is replaced with. */
export const REDACTED = '[redacted]';

/**
 * The secret values one plugin has been given (WebAssembly: through `get-secret` and
 * `get-project-secret`; native channels: the secret settings of each delivery), and their
 * removal from any text the runner writes about the plugin: its log lines and output, error
 * messages and details. Exact replacement of every occurrence by `[redacted]` (the value as
 * text, never as a pattern), longest value first (so a secret containing another is removed
 * whole). The one implementation of both tiers: a plugin learns a secret only through them,
 * so every secret it could write is known here first.
 */
export class SecretScrubber {
  private readonly values = new Set<string>();
  private ordered: string[] = [];

  constructor(private readonly maxValues = 1000) {}

  add(value: string): void {
    if (value.length === 0 || this.values.has(value)) return;
    if (this.values.size >= this.maxValues) {
      // Forget the oldest value; a plugin with this many secrets is misbehaving anyway.
      const oldest = this.values.values().next().value as string;
      this.values.delete(oldest);
    }
    this.values.add(value);
    this.ordered = [...this.values].sort((a, b) => b.length - a.length);
  }

  get size(): number {
    return this.values.size;
  }

  scrub(text: string): string {
    let result = text;
    for (const value of this.ordered) {
      if (result.includes(value)) result = result.split(value).join(REDACTED);
    }
    return result;
  }

  /** A JSON-like value with every string scrubbed (keys included). */
  scrubValue<T>(value: T): T {
    if (this.ordered.length === 0) return value;
    if (typeof value === 'string') return this.scrub(value) as T;
    if (Array.isArray(value)) return value.map((item: unknown) => this.scrubValue(item)) as T;
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [this.scrub(k), this.scrubValue(v)]),
      ) as T;
    }
    return value;
  }
}
