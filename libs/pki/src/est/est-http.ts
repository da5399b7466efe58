/**
 * How the EST client reaches its server: the service hands in a client of `@platform/egress`
 * (`createOutboundHttp`, with the profile's trust anchor and client certificate), so every
 * call passes the one request-forgery guard, its deadline and its body caps. The library
 * itself opens no connection.
 */
export type EstHttpAnswer =
  | {
      readonly ok: true;
      readonly status: number;
      readonly headers: ReadonlyArray<readonly [string, string]>;
      readonly body: Uint8Array;
    }
  | {
      readonly ok: false;
      /** The guard's refusal code: `dns_failed`, `connect_failed`, `tls_failed`, `timeout` ... */
      readonly reason: string;
      readonly message: string;
    };

export interface EstHttpCall {
  readonly method: 'GET' | 'POST';
  readonly headers?: ReadonlyArray<readonly [string, string]>;
  readonly body?: Uint8Array | string;
}

export interface EstHttp {
  request(url: string, call: EstHttpCall): Promise<EstHttpAnswer>;
}

/** The first value of a response header (names are lower-case). */
export function headerOf(
  headers: ReadonlyArray<readonly [string, string]>,
  name: string,
): string | undefined {
  return headers.find(([key]) => key === name)?.[1];
}
