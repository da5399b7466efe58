import type {
  HostCallReply,
  HostCallRequest,
  InvokeServerMessage,
} from '@platform/plugin-protocol';
import type { HostCallBroker, HostCallContext, OutgoingEmail } from '../plugin-host/plugin-host';

/** A host call the findings service refused or could not answer. */
export class HostCallRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'HostCallRefused';
  }
}

type CallKind = NonNullable<HostCallRequest['call']>;
type AnswerKind = NonNullable<HostCallReply['answer']>;

const ANSWER_OF: Record<CallKind, AnswerKind> = {
  get_secret: 'secret',
  get_project_secret: 'secret',
  send_email: 'email',
  is_cve_known: 'cve',
};

interface Pending {
  expects: AnswerKind;
  resolve(reply: HostCallReply): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * The host-call side of one Invoke stream: sends HostCallRequests with increasing ids and
 * matches the findings service's replies by id. A reply of the wrong kind is refused, a late
 * one (after the time-out) dropped.
 */
export class InvocationSession {
  private sequence = 0;
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  constructor(
    private readonly send: (message: InvokeServerMessage) => void,
    private readonly timeoutMs: number,
  ) {}

  /** Sends one host call (`body` holds the member of `kind`) and waits for its reply. */
  ask(kind: CallKind, body: Partial<HostCallRequest>): Promise<HostCallReply> {
    if (this.closed) {
      return Promise.reject(new HostCallRefused('unavailable', 'the invocation stream is closed'));
    }
    this.sequence += 1;
    const id = String(this.sequence);
    return new Promise<HostCallReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new HostCallRefused(
            'unavailable',
            `no answer from the findings service within ${this.timeoutMs} ms`,
          ),
        );
      }, this.timeoutMs);
      this.pending.set(id, { expects: ANSWER_OF[kind], resolve, reject, timer });
      this.send({ host_call: { ...body, call_id: id } });
    });
  }

  /** A HostCallReply arrived on the stream. */
  answer(reply: HostCallReply): void {
    const pending = this.pending.get(reply.call_id);
    if (!pending) return; // late or unknown: dropped
    this.pending.delete(reply.call_id);
    clearTimeout(pending.timer);
    if (reply.answer === 'error') {
      pending.reject(
        new HostCallRefused(reply.error?.code || 'unavailable', reply.error?.message || 'refused'),
      );
    } else if (reply.answer !== pending.expects) {
      pending.reject(
        new HostCallRefused(
          'invalid',
          `expected a ${pending.expects} answer, got ${reply.answer ?? 'none'}`,
        ),
      );
    } else {
      pending.resolve(reply);
    }
  }

  /** The stream ended: every open host call fails as unavailable. */
  close(): void {
    this.closed = true;
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new HostCallRefused('unavailable', 'the invocation stream ended'));
    }
    this.pending.clear();
  }
}

function contextKey(context: HostCallContext): string {
  return [context.pluginId, context.versionDigest, context.projectId, context.eventId].join(
    '\u0000',
  );
}

const CVE_ID = /^CVE-\d{4}-\d{4,19}$/;

/**
 * HostCallBroker over the open Invoke streams: a host call for an event context goes back on
 * a stream of an invocation with exactly that context (plugin, version, project, event), so
 * the findings service answers it for the project it bound when it started the invocation.
 */
export class StreamHostCallBroker implements HostCallBroker {
  private readonly sessions = new Map<string, Set<InvocationSession>>();

  /** Registers an invocation's stream for its context; returns the unregister function. */
  open(context: HostCallContext, session: InvocationSession): () => void {
    const key = contextKey(context);
    let set = this.sessions.get(key);
    if (!set) {
      set = new Set();
      this.sessions.set(key, set);
    }
    set.add(session);
    return () => {
      set.delete(session);
      if (set.size === 0 && this.sessions.get(key) === set) this.sessions.delete(key);
    };
  }

  async getSecret(context: HostCallContext, name: string): Promise<string | undefined> {
    const reply = await this.session(context).ask('get_secret', { get_secret: { name } });
    return reply.secret?.found ? reply.secret.value : undefined;
  }

  async getProjectSecret(context: HostCallContext, name: string): Promise<string | undefined> {
    const reply = await this.session(context).ask('get_project_secret', {
      get_project_secret: { name },
    });
    return reply.secret?.found ? reply.secret.value : undefined;
  }

  async sendEmail(context: HostCallContext, message: OutgoingEmail): Promise<string> {
    const reply = await this.session(context).ask('send_email', {
      send_email: { subject: message.subject, body: message.body },
    });
    return reply.email?.message_id ?? '';
  }

  async isCveKnown(context: HostCallContext, cveIds: string[]): Promise<string[]> {
    const reply = await this.session(context).ask('is_cve_known', {
      is_cve_known: { ids: cveIds },
    });
    // Identifiers only, and only of those asked about.
    const asked = new Set(cveIds);
    return (reply.cve?.known_ids ?? []).filter((id) => asked.has(id) && CVE_ID.test(id));
  }

  private session(context: HostCallContext): InvocationSession {
    const set = this.sessions.get(contextKey(context));
    const session = set?.values().next().value;
    if (!session) {
      throw new HostCallRefused('unavailable', 'no open invocation for this event context');
    }
    return session;
  }
}
