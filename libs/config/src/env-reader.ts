/** Raised at boot when the environment is invalid; lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Reads and validates environment variables once, at boot. Problems are collected and
 * reported together by `done()`; nothing else in a service reads `process.env`.
 */
export class EnvReader {
  private readonly problems: string[] = [];

  constructor(private readonly env: Env = process.env) {}

  raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  requiredString(name: string): string {
    const value = this.raw(name);
    if (value === undefined) this.problems.push(`${name} is required`);
    return value ?? '';
  }

  int(name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed)) {
      this.problems.push(`${name} must be an integer, got "${value}"`);
      return fallback;
    }
    if (bounds.min !== undefined && parsed < bounds.min) {
      this.problems.push(`${name} must be >= ${bounds.min}, got ${parsed}`);
    }
    if (bounds.max !== undefined && parsed > bounds.max) {
      this.problems.push(`${name} must be <= ${bounds.max}, got ${parsed}`);
    }
    return parsed;
  }

  number(name: string, fallback: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed)) {
      this.problems.push(`${name} must be a number, got "${value}"`);
      return fallback;
    }
    return parsed;
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    this.problems.push(`${name} must be a boolean (true/false), got "${value}"`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problems.push(`${name} must be one of ${allowed.join('|')}, got "${value}"`);
    return fallback;
  }

  list(name: string, fallback: string[] = []): string[] {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    return value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  }

  /** Records a custom problem (cross-field checks). */
  problem(message: string): void {
    this.problems.push(message);
  }

  /** Throws a ConfigError listing every problem found. */
  done(): void {
    if (this.problems.length > 0) throw new ConfigError([...this.problems]);
  }
}
