import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a scanner answers about one finding (docs/findings-service/auto-closure.md). */
export type Verdict = 'absent' | 'present' | 'undetermined';

/** One re-verification request as the service sends it. */
export interface ReceivedRequest {
  request_id: string;
  finding_id: string;
  project_id: string;
  scanner: string;
  location: Record<string, unknown>;
}

/** A callback key as the admin route answers its creation (the secret only there). */
export interface CallbackKey {
  id: string;
  key_id: string;
  secret: string;
}

/** `v1=` + hex HMAC-SHA256(secret, "<timestamp>.<body>"): both directions sign this way. */
export function signature(secret: string, timestamp: number | string, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** POSTs a callback signed with `key` to the service (through `baseUrl`); returns the answer. */
export async function sendCallback(
  baseUrl: string,
  key: Pick<CallbackKey, 'key_id' | 'secret'>,
  results: { finding_id: string; result: Verdict; request_id?: string }[],
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ scanner: 'semgrep', results });
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await fetch(`${baseUrl}/api/v1/scanner-callbacks/verify-finding`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Scanner-Key-Id': key.key_id,
      'X-Scanner-Timestamp': String(timestamp),
      'X-Scanner-Signature': signature(key.secret, timestamp, body),
    },
    body,
  });
  return { status: res.status, body: await res.text() };
}

/**
 * A scanner's re-verification endpoint on loopback, as a real scanner would run one: it checks
 * the service's `X-Findings-Signature` with the project's endpoint secret (refusing a bad or
 * stale one with 401), takes the requests (202), and answers each through the signed callback
 * route — at once, or, for findings it was told to hold, when the test releases them.
 */
export class ScannerStandIn {
  /** Requests whose signature checked out. */
  readonly received: ReceivedRequest[] = [];
  /** Why requests were refused (signature or timestamp): the test expects none. */
  readonly refused: string[] = [];
  /** Callbacks the service did not accept (status and body): the test expects none. */
  readonly callbackFailures: string[] = [];
  /** The endpoint secret per project, as the project page (or the API) showed it once. */
  readonly secrets = new Map<string, string>();
  /** The answer per finding; `hold`: kept until release(). */
  answer: (findingId: string) => Verdict | 'hold' = () => 'absent';
  private readonly held: ReceivedRequest[] = [];
  private readonly sending: Promise<void>[] = [];
  private server: Server | undefined;

  constructor(
    private readonly serviceUrl: string,
    private readonly key: CallbackKey,
  ) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}/verify`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
  }

  /** Held requests of a finding. */
  heldFor(findingId: string): ReceivedRequest[] {
    return this.held.filter((r) => r.finding_id === findingId);
  }

  /** Answers the held requests of a finding now. */
  async release(findingId: string, verdict: Verdict): Promise<void> {
    const requests = this.heldFor(findingId);
    for (const r of requests) this.held.splice(this.held.indexOf(r), 1);
    await this.reply(requests.map((r) => ({ ...r, verdict })));
  }

  /** Waits for the answers sent so far, then stops listening. */
  async close(): Promise<void> {
    await Promise.all(this.sending);
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const timestamp = String(req.headers['x-findings-timestamp'] ?? '');
    let requests: ReceivedRequest[] = [];
    try {
      requests = (JSON.parse(body) as { requests: ReceivedRequest[] }).requests;
    } catch {
      // refused below: no project, so no secret
    }
    const secret = this.secrets.get(requests[0]?.project_id ?? '');
    const skew = Math.abs(Date.now() / 1000 - Number(timestamp));
    if (!secret || req.headers['x-findings-signature'] !== signature(secret, timestamp, body)) {
      this.refused.push(`signature of ${body.slice(0, 200)}`);
      res.writeHead(401).end();
      return;
    }
    if (!(skew < 300)) {
      this.refused.push(`timestamp ${timestamp}`);
      res.writeHead(401).end();
      return;
    }
    this.received.push(...requests);
    res.writeHead(202).end();
    const now: (ReceivedRequest & { verdict: Verdict })[] = [];
    for (const r of requests) {
      const verdict = this.answer(r.finding_id);
      if (verdict === 'hold') this.held.push(r);
      else now.push({ ...r, verdict });
    }
    await this.reply(now);
  }

  private reply(answers: (ReceivedRequest & { verdict: Verdict })[]): Promise<void> {
    if (answers.length === 0) return Promise.resolve();
    const sent = sendCallback(
      this.serviceUrl,
      this.key,
      answers.map((a) => ({
        finding_id: a.finding_id,
        request_id: a.request_id,
        result: a.verdict,
      })),
    ).then(
      (answer) => {
        if (answer.status !== 200) this.callbackFailures.push(`${answer.status} ${answer.body}`);
      },
      (error: unknown) => {
        this.callbackFailures.push(String(error));
      },
    );
    this.sending.push(sent);
    return sent;
  }
}
