import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LogLine {
  level?: number | string;
  msg?: string;
  reqId?: string;
  req?: { id?: string };
  err?: { type?: string; message?: string; stack?: string };
}

/** Error lines of the API's file sink, by request id. */
export class ServerErrorLog {
  constructor(private readonly directory: string) {}

  private lines(): LogLine[] {
    if (!existsSync(this.directory)) return [];
    return readdirSync(this.directory)
      .flatMap((file) => readFileSync(join(this.directory, file), 'utf8').split('\n'))
      .filter((l) => l.startsWith('{'))
      .map((l) => {
        try {
          return JSON.parse(l) as LogLine;
        } catch {
          return {};
        }
      });
  }

  /** Waits (with a deadline) until every id has a line: the sink writes from a worker thread. */
  async collect(requestIds: string[], timeoutMs = 5_000): Promise<Map<string, string>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = new Map<string, string>();
      for (const line of this.lines()) {
        const id = line.req?.id ?? line.reqId;
        // pino-http's own "failed with status code" line says nothing about the cause.
        if (!id || !requestIds.includes(id) || !line.err) continue;
        if (/^failed with status code/.test(line.err.message ?? '')) continue;
        const detail = line.err.stack ?? `${line.err.type}: ${line.err.message}`;
        found.set(id, `${(line.msg ?? '').replace(/ [0-9a-f-]{36}$/, '')}: ${detail}`);
      }
      if (found.size >= requestIds.length || Date.now() > deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
