/**
 * What the executable does, whichever way it was started (dist/cli.js under Node, or the
 * single executable). `--version` answers before anything else loads, so it costs about
 * what a bare `node` costs; the hot one-request reads run without commander
 * (quick-read.ts); everything else goes through main.ts, which loads each command's
 * module only when that command runs.
 */
import { processIo } from './io';
import { quickReadOf } from './quick-read';
import { VERSION } from './version';

export async function start(argv: string[]): Promise<void> {
  // A reader that stops early (`socialpub --help | head -1`) closes the pipe; end quietly,
  // as Unix tools do, instead of crashing with an unhandled EPIPE stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(0);
  });

  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  // `schedule list`, `status <id>`: without commander, when the command line is a plain one.
  const quick = quickReadOf(argv);
  if (quick) {
    const { runQuickRead } = await import('./run-quick-read');
    process.exitCode = await runQuickRead(quick, argv, processIo());
    return;
  }
  // io.ts is a few lines importing nothing: in this chunk rather than a file of its own to load.
  const { runCli } = await import('./main');
  process.exitCode = await runCli(argv, processIo());
}
