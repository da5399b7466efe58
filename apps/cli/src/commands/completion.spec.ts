import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { run } from '../cli';
import { COMMANDS } from '.';
import { completionScript } from './completion';

// The bash script runs in the real bash: COMP_WORDS/COMP_CWORD set as readline would, the
// completion function called, COMPREPLY printed. Everything expected is read from the command
// table, so a command or option added later is checked too.
const dir = mkdtempSync(join(tmpdir(), 'platform-completion-'));
const script = join(dir, 'platform.bash');
writeFileSync(script, completionScript('bash', COMMANDS));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash proposes for the command line `words` (the last word is being typed). */
function propose(words: string[]): string[] {
  const line = ['platform', ...words];
  const program = [
    `source ${JSON.stringify(script)}`,
    `COMP_WORDS=(${line.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${line.length - 1}`,
    '_platform_complete',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', program], {
    cwd: dir,
    encoding: 'utf8',
  });
  return out.split('\n').filter(Boolean).sort();
}

describe('platform completion bash (run in bash)', () => {
  it('proposes the top-level commands', () => {
    const top = [...new Set(COMMANDS.map((c) => c.path[0]))].sort();
    expect(propose([''])).toEqual(top);
    expect(propose(['su'])).toEqual(['suppress']);
  });

  it('proposes the subcommands of a group, and values of a first argument', () => {
    const ofDevices = COMMANDS.filter((c) => c.path[0] === 'devices').map((c) => c.path[1]);
    expect(propose(['devices', ''])).toEqual(ofDevices.sort());
    expect(propose(['findings', 's'])).toEqual(['status']);
    expect(propose(['login', ''])).toEqual(['certificates', 'findings']);
    expect(propose(['completion', ''])).toEqual(['bash', 'fish', 'zsh']);
  });

  it("proposes every command's flags (its own and --json/--help), after arguments too", () => {
    for (const c of COMMANDS) {
      const flags = [...Object.keys(c.options).map((o) => `--${o}`), '--help', '--json'].sort();
      expect([c.path.join(' '), propose([...c.path, '--'])]).toEqual([c.path.join(' '), flags]);
    }
    expect(propose(['upload', 'report.sarif', '--product', 'p', '--fa'])).toEqual([
      '--fail-on',
      '--fail-on-scope',
    ]);
  });

  it('proposes the values of an option that lists them, files elsewhere', () => {
    expect(propose(['upload', 'x.sarif', '--format', ''])).toEqual(['sarif', 'sonarqube']);
    expect(propose(['findings', 'status', 'id', '--to', 'false'])).toEqual(['false_positive']);
    expect(propose(['certificates', 'revoke', 'AB', '--reason', 'key'])).toEqual(['keyCompromise']);
    writeFileSync(join(dir, 'scan.sarif'), '{}');
    expect(propose(['upload', 'sca'])).toEqual(['scan.sarif']);
  });

  it('platform completion <shell> prints the script; another shell is exit 2', async () => {
    let out = '';
    const stdout = new PassThrough().on('data', (d: Buffer) => (out += d.toString()));
    const stderr = new PassThrough();
    const io = { stdout, stderr, env: { XDG_CONFIG_HOME: '/nonexistent-completion-spec' } };
    expect(await run(['completion', 'bash'], io)).toBe(0);
    expect(out).toBe(completionScript('bash', COMMANDS));
    expect(await run(['completion', 'tcsh'], io)).toBe(2);
  });

  it('zsh and fish scripts come from the same table', () => {
    const zsh = completionScript('zsh', COMMANDS);
    expect(zsh).toContain('bashcompinit');
    expect(zsh).toContain('complete -o filenames -F _platform_complete platform');
    const fish = completionScript('fish', COMMANDS);
    for (const c of COMMANDS) {
      expect(fish).toContain(`'__platform_at ${c.path.join(' ')}'`);
    }
    expect(fish).toContain("-l to -r -f -a 'new needs_review");
  });
});
