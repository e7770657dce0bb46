import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub completion bash|zsh|fish`: scripts generated from the command tree itself. */
export function defineCompletion(program: Program, kit: Kit): void {
  examples(
    program
      .command('completion')
      .description('print a shell completion script')
      .argument('<shell>', 'bash, zsh or fish')
      .action(async (shell) => (await import('./completion')).completion(kit.ctx(), { shell, program })),
    [
      'socialpub completion bash > ~/.local/share/bash-completion/completions/socialpub',
      'socialpub completion zsh > "${fpath[1]}/_socialpub"',
      'socialpub completion fish > ~/.config/fish/completions/socialpub.fish',
    ],
  );
}
