import { credentials, Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { loadChannelHostService } from '@platform/plugin-protocol';
import type { InvocationResult, JsonValue } from '../../src/plugin-host/plugin-host';
import { HostCallRefused } from '../../src/grpc/stream-host-call-broker';
import {
  MemoryBroker,
  closeHosts,
  deliverCall,
  fixtureArtifact,
  startHost,
  testLimits,
} from './native-harness';

afterEach(closeHosts);

const PROJECT = '11111111-1111-4111-8111-111111111111';

function resultOf(result: InvocationResult): Record<string, JsonValue> {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return (result.value as Record<string, JsonValue>)['result'] as Record<string, JsonValue>;
}

function emailCall(artifact: ReturnType<typeof fixtureArtifact>, settings = {}, key = 'key-1') {
  return deliverCall(artifact, {
    settings: { mode: 'email', email_subject: 'New findings', ...settings },
    idempotencyKey: key,
    eventId: `event-${key}`,
  });
}

describe('native channel host calls (ChannelHost/SendEmail)', () => {
  it('forwards one SendEmail of a Deliver in flight to the broker for the delivery context and answers its message id', async () => {
    const broker = new MemoryBroker();
    broker.mail = async (context) => `<${context.eventId}@mail.test>`;
    const { host } = startHost(testLimits(), broker);
    const artifact = fixtureArtifact();
    await host.load(artifact);

    const result = await host.invoke(emailCall(artifact));
    expect(result.ok).toBe(true);
    expect((result as { value: Record<string, JsonValue> }).value['message']).toBe(
      'mailed <event-key-1@mail.test>',
    );
    expect(broker.emails).toEqual([
      {
        context: {
          pluginId: 'chat-1',
          versionDigest: artifact.versionDigest,
          projectId: PROJECT,
          eventId: 'event-key-1',
        },
        message: { subject: 'New findings', body: `Event new_findings for project ${PROJECT}\n` },
      },
    ]);
    // The token lived only while the Deliver was in flight.
    expect(host.hostCallTokens.size).toBe(0);
  });

  it('refuses a second SendEmail in one Deliver (denied → the plugin rejects) and sends only the first', async () => {
    const broker = new MemoryBroker();
    broker.mail = async () => '<one@mail.test>';
    const { host } = startHost(testLimits(), broker);
    const artifact = fixtureArtifact();
    await host.load(artifact);

    const result = await host.invoke(emailCall(artifact, { email_calls: '2' }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toMatch(/mail refused: denied only one send_email/);
    expect(!result.ok && result.error.detail).toMatchObject({ outcome: 'rejected' });
    expect(broker.emails).toHaveLength(1);
  });

  it('passes the service refusal code through: unavailable → FAILED (retryable), not_configured → REJECTED', async () => {
    const broker = new MemoryBroker();
    const { host } = startHost(testLimits(), broker);
    const artifact = fixtureArtifact();
    await host.load(artifact);

    broker.mail = () => Promise.reject(new HostCallRefused('unavailable', 'smtp down'));
    const failed = await host.invoke(emailCall(artifact, {}, 'k-unavailable'));
    expect(!failed.ok && failed.error.message).toBe('mail refused: unavailable smtp down');
    expect(!failed.ok && failed.error.detail).toMatchObject({ outcome: 'failed', retryable: true });

    broker.mail = undefined; // MemoryBroker answers not_configured
    const rejected = await host.invoke(emailCall(artifact, {}, 'k-not-configured'));
    expect(!rejected.ok && rejected.error.message).toBe(
      'mail refused: not_configured project mail',
    );
    expect(!rejected.ok && rejected.error.detail).toMatchObject({ outcome: 'rejected' });
  });

  it('refuses a subject with a line break (invalid) without reaching the service', async () => {
    const broker = new MemoryBroker();
    broker.mail = async () => '<x@mail.test>';
    const { host } = startHost(testLimits(), broker);
    const artifact = fixtureArtifact();
    await host.load(artifact);
    const result = await host.invoke(
      emailCall(artifact, { email_subject: 'Hi\r\nBcc: victim@example.org' }),
    );
    expect(!result.ok && result.error.message).toMatch(
      /^mail refused: invalid subject must be one line/,
    );
    expect(broker.emails).toEqual([]);
  });

  it('refuses a call on the host socket with a token of no Deliver in flight (denied), e.g. one kept from an earlier delivery', async () => {
    const broker = new MemoryBroker();
    broker.mail = async () => '<x@mail.test>';
    const { host } = startHost(testLimits(), broker);
    const artifact = fixtureArtifact();
    await host.load(artifact);
    const seen = resultOf(await host.invoke(deliverCall(artifact)));
    const socket = seen['host_socket'] as string;
    expect(socket).toMatch(/\/host\.sock$/);

    const ChannelHost = loadChannelHostService();
    const client = new ChannelHost(`unix:${socket}`, credentials.createInsecure());
    try {
      const error = await new Promise<ServiceError>((resolve, reject) =>
        (
          client as unknown as {
            SendEmail(r: object, o: object, cb: (e: ServiceError | null) => void): void;
          }
        ).SendEmail(
          { host_call_token: 'ab'.repeat(32), subject: 's', body: 'b' },
          { deadline: Date.now() + 5000 },
          (e) => (e ? resolve(e) : reject(new Error('accepted a made-up token'))),
        ),
      );
      expect(error.code).toBe(GrpcStatus.PERMISSION_DENIED);
      expect((error.metadata as Metadata).get('findsvc-error-code')).toEqual(['denied']);
    } finally {
      client.close();
    }
    expect(broker.emails).toEqual([]);
  });

  it('mirrors the runner egress flags into the process environment (default: both false)', async () => {
    const strict = startHost(testLimits());
    const artifact = fixtureArtifact();
    await strict.host.load(artifact);
    expect(resultOf(await strict.host.invoke(deliverCall(artifact)))['egress_env']).toEqual({
      allow_http: 'false',
      allow_local_dial: 'false',
    });

    const relaxed = startHost(testLimits(), new MemoryBroker(), {
      allowHttp: true,
      allowLocalDial: true,
    });
    await relaxed.host.load(artifact);
    expect(resultOf(await relaxed.host.invoke(deliverCall(artifact)))['egress_env']).toEqual({
      allow_http: 'true',
      allow_local_dial: 'true',
    });
  });
});
