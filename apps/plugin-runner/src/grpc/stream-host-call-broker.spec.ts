import type { InvokeServerMessage } from '@platform/plugin-protocol';
import type { HostCallContext } from '../plugin-host/plugin-host';
import {
  HostCallRefused,
  InvocationSession,
  StreamHostCallBroker,
} from './stream-host-call-broker';

const context: HostCallContext = {
  pluginId: 'p-1',
  versionDigest: 'a'.repeat(64),
  projectId: 'project-1',
  eventId: 'event-1',
};

function session(timeoutMs = 5_000) {
  const sent: InvokeServerMessage[] = [];
  const s = new InvocationSession((message) => sent.push(message), timeoutMs);
  return { session: s, sent };
}

async function refusal(promise: Promise<unknown>): Promise<HostCallRefused> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostCallRefused);
  return error as HostCallRefused;
}

describe('host calls over an Invoke stream', () => {
  it('sends numbered requests on the stream of the matching context and resolves each by its id', async () => {
    const broker = new StreamHostCallBroker();
    const { session: s, sent } = session();
    const close = broker.open(context, s);
    const secret = broker.getSecret(context, 'token');
    const project = broker.getProjectSecret(context, 'bot');
    expect(sent).toEqual([
      { host_call: { get_secret: { name: 'token' }, call_id: '1' } },
      { host_call: { get_project_secret: { name: 'bot' }, call_id: '2' } },
    ]);
    // Answered out of order: matched by id.
    s.answer({ call_id: '2', answer: 'secret', secret: { found: false, value: '' } });
    s.answer({ call_id: '1', answer: 'secret', secret: { found: true, value: 's3cret' } });
    expect(await secret).toBe('s3cret');
    expect(await project).toBeUndefined();
    close();
    expect((await refusal(broker.getSecret(context, 'token'))).code).toBe('unavailable');
  });

  it('refuses a call for another event context (no stream of that context is open)', async () => {
    const broker = new StreamHostCallBroker();
    const { session: s, sent } = session();
    broker.open(context, s);
    const other = { ...context, projectId: 'project-2' };
    expect((await refusal(broker.getSecret(other, 'token'))).message).toMatch(
      /no open invocation for this event context/,
    );
    expect(sent).toEqual([]);
  });

  it('passes an error answer on with its code, refuses an answer of the wrong kind, drops unknown ids', async () => {
    const broker = new StreamHostCallBroker();
    const { session: s } = session();
    broker.open(context, s);
    const mail = broker.sendEmail(context, { subject: 's', body: 'b' });
    s.answer({ call_id: '99', answer: 'email', email: { message_id: 'x' } });
    s.answer({
      call_id: '1',
      answer: 'error',
      error: { code: 'not_configured', message: 'no mail' },
    });
    const refused = await refusal(mail);
    expect(refused.code).toBe('not_configured');
    expect(refused.message).toBe('not_configured: no mail');

    const cve = broker.isCveKnown(context, ['CVE-2024-0001']);
    s.answer({ call_id: '2', answer: 'secret', secret: { found: true, value: 'x' } });
    expect((await refusal(cve)).code).toBe('invalid');
  });

  it('returns only CVE identifiers that were asked about', async () => {
    const broker = new StreamHostCallBroker();
    const { session: s } = session();
    broker.open(context, s);
    const known = broker.isCveKnown(context, ['CVE-2024-0001', 'CVE-2024-0002']);
    s.answer({
      call_id: '1',
      answer: 'cve',
      cve: { known_ids: ['CVE-2024-0002', 'CVE-1999-9999', 'not an id'] },
    });
    expect(await known).toEqual(['CVE-2024-0002']);
  });

  it('fails a call unanswered within the time-out, and every open call when the stream ends', async () => {
    const broker = new StreamHostCallBroker();
    const quick = session(50);
    broker.open(context, quick.session);
    const late = broker.getSecret(context, 'token');
    const error = await refusal(late);
    expect(error.code).toBe('unavailable');
    expect(error.message).toMatch(/within 50 ms/);
    // The late answer is dropped without effect.
    quick.session.answer({ call_id: '1', answer: 'secret', secret: { found: true, value: 'x' } });

    const other = session();
    const otherContext = { ...context, eventId: 'event-2' };
    broker.open(otherContext, other.session);
    const pending = broker.getSecret(otherContext, 'token');
    other.session.close();
    expect((await refusal(pending)).message).toMatch(/the invocation stream ended/);
    expect((await refusal(broker.getSecret(otherContext, 'token'))).code).toBe('unavailable');
  });
});
