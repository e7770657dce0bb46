import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import type { Ctx } from '../context';
import { UsageError } from '../errors';

interface Node {
  /** `daemon/start`; '' for the root. */
  path: string;
  subcommands: { name: string; description: string }[];
  options: { flag: string; description: string }[];
}

/** Flattens the command tree, so the scripts always match the commands that exist. */
function walk(cmd: Command, path = '', out: Node[] = []): Node[] {
  const visible = cmd.commands.filter((c) => c.name() !== 'help');
  out.push({
    path,
    subcommands: visible.map((c) => ({ name: c.name(), description: c.description() })),
    options: cmd.options.filter((o) => o.long).map((o) => ({ flag: o.long as string, description: o.description })),
  });
  for (const c of visible) walk(c, path ? `${path}/${c.name()}` : c.name(), out);
  return out;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function bashScript(program: Command): string {
  const nodes = walk(program);
  const globals = nodes[0]?.options.map((o) => o.flag).filter((f) => f !== '--version') ?? [];
  const known = nodes.filter((n) => n.path).map((n) => n.path).join(' ');
  const cases = nodes
    .map((n) => `    ${q(n.path)}) words=${q([...new Set([...n.subcommands.map((s) => s.name), ...n.options.map((o) => o.flag), ...globals, '--help'])].join(' '))} ;;`)
    .join('\n');
  return `# bash completion for socialpub (socialpub completion bash)
_socialpub() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="" candidate w i words
  local known=" ${known} "
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    candidate="\${cmdpath:+$cmdpath/}$w"
    case "$known" in *" $candidate "*) cmdpath="$candidate" ;; esac
  done
  case "$cmdpath" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _socialpub socialpub
`;
}

export function zshScript(program: Command): string {
  const nodes = walk(program);
  const globals = nodes[0]?.options.filter((o) => o.flag !== '--version') ?? [];
  const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/:/g, '\\:');
  const known = nodes.filter((n) => n.path).map((n) => q(n.path)).join(' ');
  const cases = nodes
    .map((n) => {
      const items = [
        ...n.subcommands.map((s) => `${esc(s.name)}:${esc(s.description)}`),
        ...[...n.options, ...(n.path ? globals : [])].map((o) => `${esc(o.flag)}:${esc(o.description)}`),
      ];
      return `    ${q(n.path)}) items=(${items.map(q).join(' ')}) ;;`;
    })
    .join('\n');
  return `#compdef socialpub
# zsh completion for socialpub (socialpub completion zsh > "\${fpath[1]}/_socialpub")
_socialpub() {
  local cmdpath="" candidate w i
  local -a known items
  known=(${known})
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    candidate="\${cmdpath:+$cmdpath/}$w"
    if (( \${known[(Ie)$candidate]} )); then cmdpath="$candidate"; fi
  done
  case "$cmdpath" in
${cases}
  esac
  _describe -t commands 'socialpub' items && return 0
  _files
}
compdef _socialpub socialpub 2>/dev/null || _socialpub "$@"
`;
}

export function fishScript(program: Command): string {
  const nodes = walk(program);
  const lines = ['# fish completion for socialpub (socialpub completion fish > ~/.config/fish/completions/socialpub.fish)', 'complete -c socialpub -f'];
  const fq = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  for (const n of nodes) {
    const parts = n.path ? n.path.split('/') : [];
    const siblings = n.subcommands.map((s) => s.name).join(' ');
    const seen = parts.map((p) => `__fish_seen_subcommand_from ${p}`);
    const cond = n.path ? seen.join('; and ') : '__fish_use_subcommand';
    for (const s of n.subcommands) {
      const guard = n.path ? `${cond}; and not __fish_seen_subcommand_from ${siblings}` : cond;
      lines.push(`complete -c socialpub -n ${fq(guard)} -a ${fq(s.name)} -d ${fq(s.description)}`);
    }
    for (const o of n.options) {
      const c = n.path ? `-n ${fq(cond)} ` : '';
      lines.push(`complete -c socialpub ${c}-l ${o.flag.replace(/^--/, '')} -d ${fq(o.description)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `socialpub completion bash|zsh|fish`: prints the script (install lines in --help). */
export async function completion(ctx: Ctx, { shell, program }: { shell: string; program: Command }): Promise<void> {
  const make = { bash: bashScript, zsh: zshScript, fish: fishScript }[shell];
  if (!make) throw new UsageError(`no completion for "${shell}" (have: bash, zsh, fish)`);
  const script = make(program);
  if (ctx.log.json) ctx.log.data({ shell, script });
  else ctx.io.stdout.write(script);
}
