import {
  Metadata,
  Server,
  ServerCredentials,
  status as GrpcStatus,
  type sendUnaryData,
  type ServerUnaryCall,
} from '@grpc/grpc-js';
import {
  CHANNEL_HOST_ERROR_CODE_KEY,
  loadChannelHostService,
  type SendEmailRequest,
  type SendEmailResponse,
} from '@platform/plugin-protocol';
import type { HostCallBroker } from '../plugin-host/plugin-host';
import { HostCallRefused } from '../grpc/stream-host-call-broker';
import type { HostCallTokens } from './host-call-tokens';

/** Bounds of SendEmail (the same as the WebAssembly `send-email`). */
export const NATIVE_EMAIL_SUBJECT_MAX_CHARS = 200;
export const NATIVE_EMAIL_BODY_MAX_BYTES = 100 * 1024;

const STATUS_OF: Record<string, GrpcStatus> = {
  not_configured: GrpcStatus.FAILED_PRECONDITION,
  denied: GrpcStatus.PERMISSION_DENIED,
  invalid: GrpcStatus.INVALID_ARGUMENT,
  unavailable: GrpcStatus.UNAVAILABLE,
};

export interface ChannelHostDeps {
  pluginId: string;
  tokens: HostCallTokens;
  broker: HostCallBroker;
  /** Replaces secret values in messages that go back to the plugin. */
  scrub(text: string): string;
}

function refusal(code: string, message: string) {
  const metadata = new Metadata();
  const known = code in STATUS_OF ? code : 'unavailable';
  metadata.set(CHANNEL_HOST_ERROR_CODE_KEY, known);
  return { code: STATUS_OF[known], details: message, metadata };
}

/**
 * Checks and forwards one SendEmail: the token must belong to a Deliver of this plugin in
 * flight (once per Deliver), the subject one line of 1-200 characters, the body at most
 * 100 KiB; the findings service then sends it for the delivery's project.
 */
export async function sendEmail(deps: ChannelHostDeps, request: SendEmailRequest): Promise<string> {
  const context = deps.tokens.take(deps.pluginId, request.host_call_token, 'send_email');
  const { subject, body } = request;
  if (
    subject.length === 0 ||
    subject.length > NATIVE_EMAIL_SUBJECT_MAX_CHARS ||
    /[\r\n\0]/.test(subject)
  ) {
    throw new HostCallRefused(
      'invalid',
      `subject must be one line of 1-${NATIVE_EMAIL_SUBJECT_MAX_CHARS} characters`,
    );
  }
  if (Buffer.byteLength(body, 'utf8') > NATIVE_EMAIL_BODY_MAX_BYTES) {
    throw new HostCallRefused(
      'invalid',
      `body must be text of at most ${NATIVE_EMAIL_BODY_MAX_BYTES} bytes`,
    );
  }
  return (await deps.broker.sendEmail(context, { subject, body })) ?? '';
}

/**
 * The ChannelHost gRPC server of one native process, listening on `socketPath` (inside the
 * process's private directory). Resolves once it listens.
 */
export async function startChannelHostServer(
  socketPath: string,
  deps: ChannelHostDeps,
): Promise<Server> {
  const server = new Server();
  server.addService(loadChannelHostService().service, {
    SendEmail: (
      call: ServerUnaryCall<SendEmailRequest, SendEmailResponse>,
      callback: sendUnaryData<SendEmailResponse>,
    ) => {
      sendEmail(deps, call.request).then(
        (messageId) => callback(null, { message_id: messageId }),
        (error: unknown) => {
          const refused =
            error instanceof HostCallRefused
              ? error
              : new HostCallRefused('unavailable', 'the host call failed');
          const message = refused.message.replace(/^[a-z_]+: /, '');
          callback(refusal(refused.code, deps.scrub(message)), null);
        },
      );
    },
  });
  await new Promise<void>((resolveBind, rejectBind) => {
    server.bindAsync(`unix:${socketPath}`, ServerCredentials.createInsecure(), (error) =>
      error ? rejectBind(error) : resolveBind(),
    );
  });
  return server;
}
