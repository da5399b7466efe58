// Messages of proto/channel.proto as @grpc/proto-loader hands them over (PROTO_LOADER_OPTIONS:
// field names as written, enums as strings, defaults filled in).

export interface DeliveryContext {
  plugin_id: string;
  version_digest: string;
  project_id: string;
  event_id: string;
}

export interface DeliverRequest {
  idempotency_key: string;
  context: DeliveryContext;
  event_json: string;
  settings: Record<string, string>;
  secrets: Record<string, string>;
  /** Authorises ChannelHost calls for this delivery while it is in flight ('' = none). */
  host_call_token: string;
}

export type DeliverOutcome = 'OUTCOME_UNSPECIFIED' | 'DELIVERED' | 'REJECTED' | 'FAILED';

export interface DeliverResponse {
  outcome: DeliverOutcome;
  message: string;
  result_json: string;
}

export type ShutdownRequest = Record<string, never>;
export type ShutdownResponse = Record<string, never>;

export interface SendEmailRequest {
  host_call_token: string;
  subject: string;
  body: string;
}

export interface SendEmailResponse {
  message_id: string;
}
