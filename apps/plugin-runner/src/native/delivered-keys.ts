import type { JsonValue } from '../plugin-host/plugin-host';

/**
 * The idempotency keys a plugin delivered, with the answer of that delivery, for
 * PLUGIN_NATIVE_IDEMPOTENCY_WINDOW_SECONDS and at most PLUGIN_NATIVE_IDEMPOTENCY_MAX_KEYS
 * (oldest forgotten first). Keys are per project: two projects may use the same key.
 * Only successful deliveries are remembered; a failed one may be retried with its key.
 */
export class DeliveredKeys {
  private readonly delivered = new Map<string, { value: JsonValue; expiresAt: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys: number,
    private readonly now: () => number,
  ) {}

  static key(projectId: string, idempotencyKey: string): string {
    return `${projectId}\u0000${idempotencyKey}`;
  }

  get(key: string): JsonValue | undefined {
    const entry = this.delivered.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delivered.delete(key);
      return undefined;
    }
    return entry.value;
  }

  remember(key: string, value: JsonValue): void {
    this.delivered.delete(key);
    this.delivered.set(key, { value, expiresAt: this.now() + this.windowMs });
    while (this.delivered.size > this.maxKeys) {
      const oldest = this.delivered.keys().next().value as string;
      this.delivered.delete(oldest);
    }
  }

  get size(): number {
    return this.delivered.size;
  }
}
