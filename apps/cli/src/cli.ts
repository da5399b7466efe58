import { parseArgs } from 'node:util';
import type { Command, Context, Io } from './command';
import { COMMANDS } from './commands';
import { CredentialStore } from './config/store';
import { CliError, EXIT, usageError } from './errors';

const GLOBAL_HELP = `Usage: platform <command> [options]

The command line of the findings service and the certificate service (docs/cli.md).

Commands:
${COMMANDS.map((c) => `  ${c.path.join(' ').padEnd(22)} ${c.summary}`).join('\n')}

Every command takes --help, and --json for output scripts read.
Exit codes: 0 ok, 1 gate matched (upload --fail-on), 2 bad usage or input, 3 not signed in or
not allowed, 4 server unreachable or failing (5xx, 429), 5 request refused (other 4xx),
6 report failed to ingest or a row failed, 7 --wait timed out, 10 bug in the CLI.`;

function find(argv: string[]): { command?: Command; rest: string[] } {
  let best: Command | undefined;
  for (const c of COMMANDS) {
    if (c.path.every((w, i) => argv[i] === w) && c.path.length > (best?.path.length ?? 0)) best = c;
  }
  return { command: best, rest: best ? argv.slice(best.path.length) : argv };
}

function helpOf(c: Command): string {
  return (
    `Usage: platform ${c.path.join(' ')} ${c.usage}\n\n${c.summary}\n\n${c.help}\n\n` +
    'Common options:\n  --json       one JSON document on stdout (for scripts)\n' +
    '  -h, --help   this help\n\nExit codes and environment variables: docs/cli.md\n'
  );
}

async function dispatch(argv: string[], ctx: Context): Promise<number> {
  const { command, rest } = find(argv);
  if (!command) {
    if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
      ctx.out(GLOBAL_HELP);
      return argv.length === 0 ? EXIT.usage : EXIT.ok;
    }
    const words = argv.filter((a) => !a.startsWith('-')).join(' ');
    throw usageError(`unknown command: ${words || argv.join(' ')} (see platform --help)`);
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: {
        ...command.options,
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw usageError(
      `${(error as Error).message.split('\n')[0]} (see platform ${command.path.join(' ')} --help)`,
    );
  }
  if (parsed.values.help) {
    ctx.out(helpOf(command));
    return EXIT.ok;
  }
  const { min, max } = command.positionals;
  const n = parsed.positionals.length;
  if (n < min || (max !== undefined && n > max)) {
    throw usageError(
      `${n < min ? 'missing arguments' : `unexpected argument: ${parsed.positionals[max ?? 0]}`}` +
        ` — usage: platform ${command.path.join(' ')} ${command.usage}`,
    );
  }
  ctx.json = parsed.values.json === true;
  return command.run(ctx, parsed.values, parsed.positionals);
}

/** Runs one command line; resolves to the exit code. Never throws, never prints a stack. */
export async function run(argv: string[], io: Io): Promise<number> {
  const ctx: Context = {
    io,
    env: io.env,
    store: new CredentialStore(io.env),
    json: false,
    out: (line) => io.stdout.write(`${line}\n`),
    note: (line) => io.stderr.write(`${line}\n`),
  };
  try {
    return await dispatch(argv, ctx);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr.write(`platform: ${error.message}\n`);
      return error.exitCode;
    }
    const e = error as Error;
    io.stderr.write(`platform: unexpected error: ${e?.message ?? String(error)}\n`);
    if (io.env.PLATFORM_DEBUG === '1' && e?.stack) io.stderr.write(`${e.stack}\n`);
    return EXIT.internal;
  }
}
