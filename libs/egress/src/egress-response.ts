import type * as http from 'node:http';
import { describeHost as describe, Refused } from './egress-check';
import type { EgressResponse } from './egress-guard';
import type { EgressPolicy } from './egress-policy';
import { followedLocation } from './egress-redirects';
import type { CheckedTarget } from './egress-target';
import { errorText } from './error-text';

/**
 * Status, headers and body of one hop's answer under the response cap (declared length first,
 * then the bytes as they arrive). A redirect the guard follows, and a HEAD, are not read.
 */
export async function readResponse(
  target: CheckedTarget,
  method: string,
  res: http.IncomingMessage,
  policy: Pick<EgressPolicy, 'maxResponseBytes' | 'maxRedirects'>,
): Promise<EgressResponse> {
  const status = res.statusCode ?? 0;
  const headers: Array<[string, string]> = [];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    headers.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
  }
  const redirect =
    policy.maxRedirects > 0 && followedLocation(status, headers, policy.maxRedirects) !== undefined;
  const cap = policy.maxResponseBytes;
  const declared = Number(res.headers['content-length']);
  if (!redirect && Number.isFinite(declared) && declared > cap) {
    res.destroy();
    throw new Refused('body_too_large', `response body of ${declared} bytes exceeds ${cap} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  if (!redirect && method !== 'HEAD') {
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > cap) {
          res.destroy();
          throw new Refused('body_too_large', `response body exceeds ${cap} bytes`);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof Refused) throw error;
      throw new Refused(
        'connect_failed',
        `response from ${describe(target.host, target.port)} cut: ${errorText(error)}`,
      );
    }
  }
  res.destroy();
  return {
    ok: true,
    status,
    headers,
    body: new Uint8Array(Buffer.concat(chunks)),
    url: target.url.href,
    redirects: 0,
  };
}
