import type { HostCallRequest } from '@platform/plugin-protocol';
import {
  HostCallDenied,
  NOT_CONFIGURED_PORTS,
  type HostCallPorts,
  type PluginEventContext,
} from './host-call-ports';
import { HostCallResponder } from './host-call-responder';

const context: PluginEventContext = {
  pluginId: 'chat-1',
  versionDigest: 'a'.repeat(64),
  projectId: '11111111-1111-4111-8111-111111111111',
  eventId: 'event-1',
};

const calls: Record<string, HostCallRequest> = {
  get_secret: { call_id: '1', call: 'get_secret', get_secret: { name: 'token' } },
  get_project_secret: {
    call_id: '2',
    call: 'get_project_secret',
    get_project_secret: { name: 'token' },
  },
  send_email: { call_id: '3', call: 'send_email', send_email: { subject: 'Hi', body: 'text' } },
  is_cve_known: { call_id: '4', call: 'is_cve_known', is_cve_known: { ids: ['CVE-2024-1234'] } },
};

describe('host-call responder', () => {
  it.each(Object.keys(calls))(
    'answers %s with an explicit not_configured until the ports are wired',
    async (name) => {
      const answer = await new HostCallResponder(NOT_CONFIGURED_PORTS).answer(
        context,
        calls[name]!,
      );
      expect(answer.error?.code).toBe('not_configured');
      expect(answer.secret ?? answer.email ?? answer.cve).toBeUndefined();
    },
  );

  it('answers through wired ports for the invocation context it is given', async () => {
    const seen: string[] = [];
    const ports: HostCallPorts = {
      secrets: {
        getSecret: async (c, name) => (seen.push(`secret ${c.pluginId} ${name}`), 'v1'),
        getProjectSecret: async (c, name) => (
          seen.push(`project ${c.projectId} ${name}`),
          undefined
        ),
      },
      mail: {
        send: async (c, m) => (seen.push(`mail ${c.projectId} ${m.subject}`), { messageId: 'm-1' }),
      },
      cve: {
        // A port answering more than was asked: only the asked identifiers go back.
        knownIds: async () => ['CVE-2024-1234', 'CVE-1999-0001'],
      },
    };
    const responder = new HostCallResponder(ports);
    expect(await responder.answer(context, calls['get_secret']!)).toEqual({
      secret: { found: true, value: 'v1' },
    });
    expect(await responder.answer(context, calls['get_project_secret']!)).toEqual({
      secret: { found: false, value: '' },
    });
    expect(await responder.answer(context, calls['send_email']!)).toEqual({
      email: { message_id: 'm-1' },
    });
    expect(await responder.answer(context, calls['is_cve_known']!)).toEqual({
      cve: { known_ids: ['CVE-2024-1234'] },
    });
    expect(seen).toEqual([
      'secret chat-1 token',
      `project ${context.projectId} token`,
      `mail ${context.projectId} Hi`,
    ]);
  });

  it('refuses malformed requests as invalid without asking a port', async () => {
    const responder = new HostCallResponder(NOT_CONFIGURED_PORTS);
    const invalid: HostCallRequest[] = [
      { call_id: '1', call: 'get_secret', get_secret: { name: '' } },
      { call_id: '1', call: 'get_project_secret', get_project_secret: { name: '../x y' } },
      { call_id: '1', call: 'send_email', send_email: { subject: 'a\r\nBcc: x@y', body: '' } },
      {
        call_id: '1',
        call: 'send_email',
        send_email: { subject: 'ok', body: 'x'.repeat(300_000) },
      },
      { call_id: '1', call: 'is_cve_known', is_cve_known: { ids: ['not-a-cve'] } },
      { call_id: '1' },
      { call_id: '1', call: 'read_file' as HostCallRequest['call'] },
    ];
    for (const request of invalid) {
      expect((await responder.answer(context, request)).error?.code).toBe('invalid');
    }
  });

  it('answers denied for a refusal and unavailable (without the cause) for any other failure', async () => {
    const failures: string[] = [];
    const responder = new HostCallResponder(
      {
        ...NOT_CONFIGURED_PORTS,
        secrets: {
          getSecret: () => Promise.reject(new HostCallDenied('not this plugin')),
          getProjectSecret: () => Promise.reject(new Error('db password=hunter2 refused')),
        },
      },
      (error, call) => failures.push(`${call}: ${(error as Error).message}`),
    );
    expect(await responder.answer(context, calls['get_secret']!)).toEqual({
      error: { code: 'denied', message: 'not this plugin' },
    });
    const answer = await responder.answer(context, calls['get_project_secret']!);
    expect(answer).toEqual({
      error: { code: 'unavailable', message: 'get_project_secret failed in the findings service' },
    });
    expect(failures).toEqual(['get_project_secret: db password=hunter2 refused']);
  });
});
