/**
 * The e-mail bench's SMTP server in a process of its own (forked by email-bench.ts): the
 * stand-in of the tests (apps/findings-service/test/support/smtp-stand-in.ts), so that its
 * event loop does not share the bench process's with the findings worker — a server answering
 * late because the client's own process is busy would charge the service for the server's wait.
 * Talks over the IPC channel: `{start: {pki, account}}` → `{port}`; `{stats: true}` →
 * `{received, duplicates}`; `{messages: n}` → the first n received `{to, subject, text}`.
 */
import {
  SmtpStandIn,
  type TestPki,
} from '../../../apps/findings-service/test/support/smtp-stand-in';

type Request =
  | { start: { pki: Omit<TestPki, 'remove'>; account: { user: string; pass: string } } }
  | { stats: true }
  | { messages: number };

let server: SmtpStandIn | undefined;

function reply(message: unknown): void {
  process.send?.(message);
}

process.on('message', (request: Request) => {
  void (async () => {
    if ('start' in request) {
      const pki: TestPki = { ...request.start.pki, remove: () => undefined };
      server = await new SmtpStandIn({
        mode: 'starttls',
        pki,
        account: request.start.account,
      }).start();
      reply({ port: server.port });
    } else if ('stats' in request) {
      reply({ received: server?.received.length ?? 0, duplicates: server?.duplicates ?? 0 });
    } else {
      reply({
        messages: (server?.received ?? []).slice(0, request.messages).map((m) => ({
          to: m.envelopeTo,
          subject: m.parsed.subject ?? '',
          text: m.parsed.text ?? '',
        })),
      });
    }
  })().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
process.on('disconnect', () => {
  void server?.stop().finally(() => process.exit(0));
});
