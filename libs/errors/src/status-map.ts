/** Maps domain error codes to HTTP statuses; unknown codes fall back to `fallback`. */
export class ErrorStatusMap {
  private readonly statuses: Map<string, number>;

  constructor(
    entries: Record<string, number>,
    private readonly fallback = 400,
  ) {
    this.statuses = new Map(Object.entries(entries));
  }

  statusOf(code: string): number {
    return this.statuses.get(code) ?? this.fallback;
  }

  has(code: string): boolean {
    return this.statuses.has(code);
  }
}
