// Messages of proto/runner.proto as @grpc/proto-loader hands them over (PROTO_LOADER_OPTIONS:
// field names as written, enums and 64-bit integers as strings, defaults filled in, the name
// of the set oneof member in the oneof's own field).

export interface PluginSource {
  id: string;
  public_key: string;
  allows_native: boolean;
}

export interface LoadRequest {
  plugin_id: string;
  version: string;
  version_digest: string;
  /** "wasm" or "native" (PluginRuntime of @platform/plugin-sdk). */
  runtime: string;
  manifest: Buffer;
  signature: Buffer;
  source: PluginSource | null;
  artifact: Buffer;
  permitted_hosts: string[];
}

export interface LoadResponse {
  plugin_id: string;
  version: string;
  version_digest: string;
  runtime: string;
  replaced: boolean;
}

export interface UnloadRequest {
  plugin_id: string;
}

export interface UnloadResponse {
  was_loaded: boolean;
}

export interface EventContext {
  plugin_id: string;
  version_digest: string;
  project_id: string;
  event_id: string;
}

export interface InvokeStart {
  context: EventContext | null;
  capability: string;
  operation: string;
  payload_json: string;
  settings_json: string;
  idempotency_key: string;
  deadline_ms: number;
  /** The secrets below are attached (runner.proto); absent/false: ask the host calls. */
  secrets_attached?: boolean;
  installation_secrets?: Record<string, string>;
  project_secrets?: Record<string, string>;
}

export interface GetSecretCall {
  name: string;
}
export interface GetProjectSecretCall {
  name: string;
}
export interface SendEmailCall {
  subject: string;
  body: string;
}
export interface IsCveKnownCall {
  ids: string[];
}

export interface HostCallRequest {
  /** uint64 as a decimal string. */
  call_id: string;
  call?: 'get_secret' | 'get_project_secret' | 'send_email' | 'is_cve_known';
  get_secret?: GetSecretCall;
  get_project_secret?: GetProjectSecretCall;
  send_email?: SendEmailCall;
  is_cve_known?: IsCveKnownCall;
}

export interface SecretAnswer {
  found: boolean;
  value: string;
}
export interface EmailAnswer {
  message_id: string;
}
export interface CveAnswer {
  known_ids: string[];
}

/** Codes of an explicit host-call refusal. */
export type HostCallErrorCode = 'not_configured' | 'denied' | 'invalid' | 'unavailable';
export const HOST_CALL_ERROR_CODES: readonly HostCallErrorCode[] = [
  'not_configured',
  'denied',
  'invalid',
  'unavailable',
];

export interface HostCallError {
  code: string;
  message: string;
}

export interface HostCallReply {
  call_id: string;
  answer?: 'secret' | 'email' | 'cve' | 'error';
  secret?: SecretAnswer;
  email?: EmailAnswer;
  cve?: CveAnswer;
  error?: HostCallError;
}

export interface InvokeClientMessage {
  message?: 'start' | 'reply';
  start?: InvokeStart;
  reply?: HostCallReply;
}

export interface InvokeResult {
  ok: boolean;
  value_json: string;
  error_code: string;
  error_message: string;
  error_detail_json: string;
  duration_ms: number;
}

export interface InvokeServerMessage {
  message?: 'host_call' | 'result';
  host_call?: HostCallRequest;
  result?: InvokeResult;
}
