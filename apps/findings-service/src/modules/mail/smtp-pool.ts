import { SmtpConnection, type SmtpConnectionOptions } from './smtp-connection';

interface Job {
  from: string;
  to: string[];
  data: Buffer;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * At most `maxConnections` SMTP sessions to one server, each sending one message after the
 * other for as long as it lives (no per-connection message cap). A message waits for a free
 * session. A session that fails is dropped; a message whose reused session turned out dead
 * before its data was written (the server closed it while idle) is sent once more on a fresh
 * one — nothing of it was accepted, so that cannot duplicate it.
 */
export class SmtpPool {
  private readonly idle: SmtpConnection[] = [];
  private readonly queue: Job[] = [];
  private open = 0;
  private closed = false;

  constructor(
    readonly options: SmtpConnectionOptions,
    private readonly maxConnections: number,
  ) {}

  send(from: string, to: string[], data: Buffer): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the mail pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ from, to, data, resolve, reject });
      this.pump();
    });
  }

  close(): void {
    this.closed = true;
    for (const connection of this.idle.splice(0)) connection.close();
    for (const job of this.queue.splice(0)) job.reject(new Error('the mail pool is closed'));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let connection = this.idle.pop();
      while (connection && !connection.usable) {
        this.open -= 1;
        connection = this.idle.pop();
      }
      if (!connection && this.open >= this.maxConnections) return;
      if (!connection) this.open += 1;
      void this.run(connection, this.queue.shift() as Job);
    }
  }

  private async run(reused: SmtpConnection | undefined, job: Job): Promise<void> {
    let connection = reused;
    try {
      connection ??= await SmtpConnection.open(this.options);
      try {
        await connection.send(job.from, job.to, job.data);
      } catch (error) {
        if (!reused || connection.dataWritten || !isConnectionLoss(error)) throw error;
        // The idle session was gone (no reply at all to this message's first command).
        connection.close();
        connection = await SmtpConnection.open(this.options);
        await connection.send(job.from, job.to, job.data);
      }
      job.resolve();
    } catch (error) {
      connection?.close();
      connection = undefined;
      job.reject(error as Error);
    } finally {
      if (connection && connection.usable && !this.closed) this.idle.push(connection);
      else {
        connection?.close();
        this.open -= 1;
      }
      this.pump();
    }
  }
}

/** The session was lost (0) or the server is closing it (421) — before anything was accepted. */
const isConnectionLoss = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  return code === 0 || code === 421;
};
