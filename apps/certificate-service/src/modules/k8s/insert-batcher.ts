/**
 * Set-based writes for a hot path: rows added while a write is in flight are written together
 * by the next one (one statement per batch instead of one per row). `add` resolves when its
 * row is written, or rejects with the batch's error. At most one write is in flight.
 */
export class InsertBatcher<T> {
  private queued: { row: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly write: (rows: T[]) => Promise<void>,
    private readonly maxBatch = 500,
  ) {}

  add(row: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ row, resolve, reject });
      if (!this.flushing) this.flushing = this.drain();
    });
  }

  /** Resolves once every row added so far is written. */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async drain(): Promise<void> {
    // Let the calls of this event-loop turn join the first batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.queued.length > 0) {
      const batch = this.queued.splice(0, this.maxBatch);
      try {
        await this.write(batch.map((b) => b.row));
        for (const b of batch) b.resolve();
      } catch (error) {
        for (const b of batch) b.reject(error);
      }
    }
    this.flushing = undefined;
  }
}
