import { PassThrough } from 'node:stream';
import { run } from './cli';
import { COMMANDS } from './commands';

async function cli(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  // no credentials anywhere: nothing here may reach a server
  const code = await run(args, {
    stdout,
    stderr,
    env: { XDG_CONFIG_HOME: '/nonexistent-cli-spec' },
  });
  return { code, out, err };
}

describe('platform (command line parsing)', () => {
  it.each(COMMANDS.map((c) => [c.path.join(' ')]))(
    '%s --help prints its usage, exit 0',
    async (name) => {
      const r = await cli([...name.split(' '), '--help']);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: platform ${name} `));
      expect(r.out).toContain('--json');
    },
  );

  it('lists every command in the global help; no arguments is exit 2', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const c of COMMANDS) expect(help.out).toContain(c.path.join(' '));
    expect((await cli([])).code).toBe(2);
  });

  it('bad usage is exit 2 with one line naming the problem, no stack', async () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command: frobnicate/],
      [['upload', 'x.sarif', '--bogus'], /Unknown option '--bogus'/],
      [['upload'], /missing arguments — usage: platform upload <report>/],
      [['upload', 'x.sarif'], /--product is required/],
      [['requests', 'list', 'extra'], /unexpected argument: extra/],
      [['requests', 'list', '--limit', '0'], /--limit must be a whole number from 1 to 500/],
      [['login', 'mail'], /unknown service: mail/],
      [
        ['login', 'findings', '--url', 'http://x', '--provider', 'corp'],
        /--provider goes with --sso/,
      ],
      [
        ['login', 'findings', '--sso', '--url', 'http://x', '--timeout', '0'],
        /--timeout takes seconds/,
      ],
      [['findings', 'get', '12'], /not a finding id/],
      [['findings', 'status', 'a'], /not a finding id/],
      [
        ['findings', 'status', '6f1c2a4e-0000-4000-8000-000000000000', '--to', 'done'],
        /--to must be one of new/,
      ],
      [['findings', 'status', '6f1c2a4e-0000-4000-8000-000000000000'], /--to is required/],
      [['suppress', 'create', '--project', 'p', '--name', 'n'], /--query is required/],
      [['suppress', 'delete', 'x'], /not a rule id/],
      [
        ['license', 'activate', '/nonexistent/x.lic'],
        /cannot read \/nonexistent\/x.lic: no such file/,
      ],
      [['devices', 'download-logs', 'SN-1', 'x'], /not a snapshot id/],
      [['completion', 'tcsh'], /no completion for tcsh/],
      [
        ['upload', 'x.sarif', '--product', 'p', '--fail-on-scope', 'report'],
        /--fail-on-scope goes with --fail-on/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });

  it('without credentials or a server URL a command is exit 3 and says how to sign in', async () => {
    const r = await cli(['devices', 'list']);
    expect(r.code).toBe(3);
    expect(r.err).toContain('platform login certificates');
  });
});
