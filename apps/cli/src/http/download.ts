import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import type { Context } from '../command';
import { CliError, EXIT, usageError } from '../errors';

/**
 * Streams an answer's body to stdout or, with `output`, to `<output>.partial` (0600) renamed to
 * `<output>` once complete: a broken-off transfer leaves no file (exit 4). Never buffered whole.
 */
export async function saveBody(
  ctx: Context,
  res: Response,
  output: string | undefined,
  what: string,
): Promise<void> {
  if (!res.body) throw new CliError(EXIT.unavailable, 'the server sent an empty answer');
  const body = Readable.fromWeb(res.body as unknown as WebStream<Uint8Array>);
  if (!output) {
    const out = ctx.io.stdout;
    await pipeline(body, new Writable({ write: (c, _e, cb) => out.write(c, cb) }));
    return;
  }
  const partial = `${output}.partial`;
  try {
    await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, output);
  } catch (error) {
    await rm(partial, { force: true });
    const e = error as NodeJS.ErrnoException;
    if (e.code && ['ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR', 'EROFS'].includes(e.code)) {
      throw usageError(`cannot write ${output}: ${e.code}`);
    }
    throw new CliError(EXIT.unavailable, `the ${what} broke off: ${e.message}`, 'stream_broken');
  }
}
