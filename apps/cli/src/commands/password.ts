import { CliError, EXIT, usageError } from '../errors';
import type { Context } from '../command';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a line from a terminal without echoing it. */
function prompt(
  ctx: Context,
  stdin: NonNullable<Context['io']['stdin']>,
  question: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    ctx.io.stderr.write(question);
    stdin.setRawMode?.(true);
    stdin.resume();
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(() => resolve(value));
        if (ch === '\u0003') return done(() => reject(new CliError(EXIT.usage, 'cancelled')));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    const done = (finish: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      ctx.io.stderr.write('\n');
      finish();
    };
    stdin.on('data', onData);
  });
}

/** The password: PLATFORM_PASSWORD, stdin with --password-stdin, or a prompt on a terminal. */
export async function readPassword(ctx: Context, fromStdin: boolean): Promise<string> {
  let password: string | undefined;
  if (fromStdin) {
    if (!ctx.io.stdin) throw usageError('--password-stdin: no standard input');
    password = (await readAll(ctx.io.stdin)).replace(/\r?\n$/, '');
  } else if (ctx.env.PLATFORM_PASSWORD) {
    password = ctx.env.PLATFORM_PASSWORD;
  } else if (ctx.io.stdin?.isTTY) {
    password = await prompt(ctx, ctx.io.stdin, 'Password: ');
  } else {
    throw usageError('no password: use --password-stdin or set PLATFORM_PASSWORD (no terminal)');
  }
  if (!password) throw usageError('the password is empty');
  return password;
}
