import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';
import { withListenOptions } from './daemon.command';

/** `socialpub service install|uninstall|status`: the daemon as a service of the user's login. */
export function defineService(program: Program, kit: Kit): void {
  const service = examples(
    program.command('service').description('run the daemon as a service of your login (systemd user unit on Linux, launchd agent on macOS)'),
    ['socialpub service install', 'socialpub service status', 'socialpub daemon logs -n 20'],
  );
  examples(
    withListenOptions(service.command('install').description('start the daemon at login and restart it if it fails; starts it now')).action(async (o) =>
      (await import('./service')).serviceInstall(kit.ctx(), o),
    ),
    ['socialpub service install', 'socialpub service install --port 9000'],
  );
  examples(
    service
      .command('uninstall')
      .description('stop the service and remove it')
      .action(async () => (await import('./service')).serviceUninstall(kit.ctx())),
    ['socialpub service uninstall'],
  );
  examples(
    service
      .command('status')
      .description('is the service installed, enabled and running (exit 0 running, 7 stopped, 4 not installed)')
      .action(async () => (await import('./service')).serviceStatus(kit.ctx())),
    ['socialpub service status', 'socialpub service status --json'],
  );
}
