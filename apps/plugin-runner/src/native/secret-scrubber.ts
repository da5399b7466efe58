const REDACTED = '[REDACTED]';
const MAX_VALUES = 1000;

/**
 * Every secret value a plugin has been given, replaced exactly (longest first) in whatever
 * the plugin says: its output lines and its error messages before they reach logs or the
 * findings service.
 */
export class SecretScrubber {
  private readonly values = new Set<string>();
  private ordered: string[] = [];

  add(value: string): void {
    if (value.length === 0 || this.values.has(value)) return;
    this.values.add(value);
    if (this.values.size > MAX_VALUES) {
      const oldest = this.values.values().next().value as string;
      this.values.delete(oldest);
    }
    this.ordered = [...this.values].sort((a, b) => b.length - a.length);
  }

  scrub(text: string): string {
    let out = text;
    for (const value of this.ordered) out = out.split(value).join(REDACTED);
    return out;
  }
}
