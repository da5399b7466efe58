import type { HostCallErrorCode, HostCallReply, HostCallRequest } from '@platform/plugin-protocol';
import {
  HostCallDenied,
  HostCallNotConfigured,
  type HostCallPorts,
  type PluginEventContext,
} from './host-call-ports';

/** The reply without its call id (the stream adds it). */
export type HostCallAnswer = Omit<HostCallReply, 'call_id'>;

const SETTING_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const CVE_ID = /^CVE-\d{4}-\d{4,19}$/;
const MAX_CVE_IDS = 1000;
const MAX_SUBJECT = 998;
const MAX_BODY_BYTES = 256 * 1024;

function refused(code: HostCallErrorCode, message: string): HostCallAnswer {
  return { error: { code, message } };
}

/**
 * Answers one host-call request of the runner for the invocation's own context, through the
 * ports. The request is checked first (it crosses a process boundary): a malformed one is
 * answered `invalid`; a port's HostCallNotConfigured becomes `not_configured`, HostCallDenied
 * `denied`, any other failure `unavailable` (its message is not passed on).
 */
export class HostCallResponder {
  constructor(
    private readonly ports: HostCallPorts,
    private readonly onFailure: (error: unknown, call: string) => void = () => undefined,
  ) {}

  async answer(context: PluginEventContext, request: HostCallRequest): Promise<HostCallAnswer> {
    const call = request.call ?? 'none';
    try {
      return await this.dispatch(context, request);
    } catch (error) {
      if (error instanceof HostCallNotConfigured) return refused('not_configured', error.message);
      if (error instanceof HostCallDenied) return refused('denied', error.message);
      this.onFailure(error, call);
      return refused('unavailable', `${call} failed in the findings service`);
    }
  }

  private async dispatch(
    context: PluginEventContext,
    request: HostCallRequest,
  ): Promise<HostCallAnswer> {
    switch (request.call) {
      case 'get_secret':
      case 'get_project_secret': {
        const name = (request.get_secret ?? request.get_project_secret)?.name ?? '';
        if (!SETTING_NAME.test(name)) return refused('invalid', 'a setting name is required');
        const value =
          request.call === 'get_secret'
            ? await this.ports.secrets.getSecret(context, name)
            : await this.ports.secrets.getProjectSecret(context, name);
        return {
          secret: value === undefined ? { found: false, value: '' } : { found: true, value },
        };
      }
      case 'send_email': {
        const subject = request.send_email?.subject ?? '';
        const body = request.send_email?.body ?? '';
        if (subject.length === 0 || subject.length > MAX_SUBJECT || /[\r\n]/.test(subject)) {
          return refused('invalid', `the subject must be one line of 1..${MAX_SUBJECT} characters`);
        }
        if (Buffer.byteLength(body) > MAX_BODY_BYTES) {
          return refused('invalid', `the body exceeds ${MAX_BODY_BYTES} bytes`);
        }
        const sent = await this.ports.mail.send(context, { subject, body });
        return { email: { message_id: sent.messageId } };
      }
      case 'is_cve_known': {
        const ids = request.is_cve_known?.ids ?? [];
        if (ids.length > MAX_CVE_IDS || !ids.every((id) => CVE_ID.test(id))) {
          return refused('invalid', `up to ${MAX_CVE_IDS} identifiers of the form CVE-YYYY-NNNN`);
        }
        const asked = new Set(ids);
        const known = await this.ports.cve.knownIds(context, [...asked]);
        // Identifiers only, and only those asked about.
        return { cve: { known_ids: known.filter((id) => asked.has(id)) } };
      }
      case undefined:
        return refused('invalid', 'unknown host call');
    }
    // A call this side does not know (a newer runner): refused the same way.
    return refused('invalid', 'unknown host call');
  }
}
