import type { Command } from '../command';
import { EXIT, usageError } from '../errors';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];
const COMMON = ['--json', '--help'];

/** What the scripts are made of, all read from the command table. */
interface Model {
  /** Word path ('' = top level) -> the words that may follow it. */
  children: Map<string, string[]>;
  /** Command path -> its options ('--name'), common ones included. */
  options: Map<string, string[]>;
  /** Command path -> the values of its first argument, when the command lists them. */
  args: Map<string, readonly string[]>;
  /** 'command path --option' -> its values, when the option lists them. */
  values: Map<string, readonly string[]>;
}

function model(commands: Command[]): Model {
  const m: Model = { children: new Map(), options: new Map(), args: new Map(), values: new Map() };
  for (const c of commands) {
    for (let i = 0; i < c.path.length; i++) {
      const at = c.path.slice(0, i).join(' ');
      const list = m.children.get(at) ?? [];
      if (!list.includes(c.path[i])) list.push(c.path[i]);
      m.children.set(at, list);
    }
    const key = c.path.join(' ');
    m.options.set(key, [...Object.keys(c.options).map((o) => `--${o}`), ...COMMON]);
    if (c.argValues) m.args.set(key, c.argValues);
    for (const [o, v] of Object.entries(c.optionValues ?? {})) m.values.set(`${key} --${o}`, v);
  }
  return m;
}

const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

function bash(m: Model): string {
  const cases = (entries: [string, readonly string[]][]) =>
    entries.map(([k, v]) => `      ${q(k)}) words=${q(v.join(' '))} ;;`).join('\n');
  // The command of a typed path: the longest command path it starts with (arguments follow).
  const byLength = [...m.options.entries()].sort((a, b) => b[0].length - a[0].length);
  const commandOf = byLength.map(([k]) => `    ${q(k)}|${q(`${k} `)}*) cmd=${q(k)} ;;`).join('\n');
  return `# platform shell completion for bash, generated from the CLI's command table by
# \`platform completion bash\`. Load it: source <(platform completion bash)
_platform_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" path="" cmd="" w words="" i
  (( COMP_CWORD > 1 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for (( i = 1; i < COMP_CWORD; i++ )); do
    w="\${COMP_WORDS[i]}"
    case "$w" in -*) ;; *) path="\${path:+$path }$w" ;; esac
  done
  case "$path" in
${commandOf}
  esac
  case "$cmd $prev" in
${cases([...m.values.entries()])}
  esac
  if [[ -n "$words" ]]; then
    COMPREPLY=( $(compgen -W "$words" -- "$cur") ); return 0
  fi
  if [[ "$cur" == -* ]]; then
    case "$cmd" in
${cases([...m.options.entries()])}
      *) words='--help' ;;
    esac
  else
    case "$path" in
${cases([...m.children.entries()])}
${cases([...m.args.entries()])}
    esac
  fi
  if [[ -n "$words" ]]; then COMPREPLY=( $(compgen -W "$words" -- "$cur") ); return 0; fi
  COMPREPLY=( $(compgen -f -- "$cur") )
}
complete -o filenames -F _platform_complete platform
`;
}

function zsh(m: Model): string {
  return `#compdef platform
# platform shell completion for zsh (through bashcompinit), generated from the CLI's command
# table by \`platform completion zsh\`. Load it: source <(platform completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bash(m).split('\n').slice(2).join('\n')}`;
}

function fish(m: Model): string {
  const lines = [
    "# platform shell completion for fish, generated from the CLI's command table by",
    '# `platform completion fish`. Load it: platform completion fish | source',
    'function __platform_words',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    "    for w in $words; if not string match -q -- '-*' $w; echo $w; end; end",
    'end',
    'function __platform_is; test "$(__platform_words)" = "$argv"; end',
    'function __platform_at',
    '    set -l typed (__platform_words)',
    '    test (count $typed) -ge (count $argv); or return 1',
    '    for i in (seq (count $argv)); test "$typed[$i]" = "$argv[$i]"; or return 1; end',
    'end',
  ];
  for (const [at, words] of [...m.children.entries(), ...m.args.entries()]) {
    lines.push(
      `complete -c platform -f -n ${q(`__platform_is ${at}`.trim())} -a ${q(words.join(' '))}`,
    );
  }
  for (const [path, options] of m.options) {
    for (const o of options) {
      const values = m.values.get(`${path} ${o}`);
      const more = values ? ` -r -f -a ${q(values.join(' '))}` : '';
      lines.push(`complete -c platform -n ${q(`__platform_at ${path}`)} -l ${o.slice(2)}${more}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: Shell, commands: Command[]): string {
  const m = model(commands);
  return shell === 'bash' ? bash(m) : shell === 'zsh' ? zsh(m) : fish(m);
}

/** `platform completion`; the table is read when it runs (the command is part of it). */
export function completionCommand(table: () => Command[]): Command {
  return {
    path: ['completion'],
    summary: 'Print a shell completion script (bash, zsh or fish)',
    usage: '<bash|zsh|fish>',
    options: {},
    positionals: { min: 1, max: 1 },
    argValues: SHELLS,
    help: `The script is generated from the CLI's own command table: commands, their options and
option values. Load it for this shell, or install it:
  bash:  source <(platform completion bash)      # or > ~/.local/share/bash-completion/completions/platform
  zsh:   source <(platform completion zsh)       # in ~/.zshrc
  fish:  platform completion fish > ~/.config/fish/completions/platform.fish`,
    async run(ctx, _values, [shell]) {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw usageError(`no completion for ${shell} (bash, zsh or fish)`);
      }
      ctx.io.stdout.write(completionScript(shell as Shell, table()));
      return EXIT.ok;
    },
  };
}
