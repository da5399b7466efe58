/**
 * One statement for many concurrent callers: inputs submitted while a statement is in flight
 * go together into the next one. `submit` resolves with its own input's answer once that
 * statement has committed (a caller never proceeds before its write is durable), or rejects
 * with the statement's error. At most one statement is in flight; a quiet caller's input goes
 * out on the next turn of the event loop, alone.
 */
export class StatementBatcher<I, O> {
  private queued: { input: I; resolve: (out: O) => void; reject: (error: unknown) => void }[] = [];
  private flushing: Promise<void> | undefined;

  constructor(
    /** Answers `inputs` in their order (one answer per input). */
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly maxBatch = 256,
  ) {}

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queued.push({ input, resolve, reject });
      if (!this.flushing) this.flushing = this.drain();
    });
  }

  private async drain(): Promise<void> {
    // The calls of this event-loop turn join the first statement.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.queued.length > 0) {
      const batch = this.queued.splice(0, this.maxBatch);
      try {
        const answers = await this.run(batch.map((b) => b.input));
        if (answers.length !== batch.length) {
          throw new Error(`${answers.length} answers for ${batch.length} inputs`);
        }
        batch.forEach((b, i) => b.resolve(answers[i] as O));
      } catch (error) {
        for (const b of batch) b.reject(error);
      }
    }
    this.flushing = undefined;
  }
}
