import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface MultipartFile {
  field: string;
  path: string;
  /** The file name sent in the part (quotes and line breaks replaced). */
  name: string;
  size: number;
}

/**
 * POSTs `fields` and one file as multipart/form-data, streaming the file from disk with
 * back-pressure (node:http, not fetch: undici's FormData buffered a 100 MB report, ~130 MB of
 * resident memory). Content-Length is exact, so no chunked encoding. Resolves with the answer
 * as a fetch Response as soon as the server answers, even before the file is sent (a refusal).
 */
export function postMultipart(
  url: string,
  headers: Record<string, string>,
  fields: [string, string][],
  file: MultipartFile,
): Promise<Response> {
  const boundary = `----platform-cli-${randomBytes(12).toString('hex')}`;
  const safe = (s: string) => s.replace(/["\r\n\\]/g, '_');
  const head = Buffer.from(
    fields
      .map(
        ([k, v]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${safe(k)}"\r\n\r\n${v}\r\n`,
      )
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="${safe(file.field)}"; filename="${safe(file.name)}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = send(target, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + file.size + tail.length),
      },
    });
    req.on('response', (res: IncomingMessage) => {
      answered = true;
      const responseHeaders = new Headers();
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) responseHeaders.set(k, Array.isArray(v) ? v.join(', ') : v);
      }
      resolve(
        new Response(Readable.toWeb(res) as ReadableStream, {
          status: res.statusCode ?? 500,
          headers: responseHeaders,
        }),
      );
    });
    async function* body() {
      yield head;
      yield* createReadStream(file.path, { highWaterMark: 256 * 1024 });
      yield tail;
    }
    // An early answer (401, 413) may close the connection before the file is sent: not an error.
    pipeline(body(), req).catch((error: unknown) => {
      if (!answered) reject(error);
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
  });
}
