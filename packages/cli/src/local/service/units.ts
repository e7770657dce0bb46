/**
 * The files that make the daemon a service of the user's session: a systemd user unit
 * (Linux) and a launchd agent (macOS). Pure text: what runs, where its output goes, and
 * when it is restarted.
 */

export const SYSTEMD_UNIT = 'socialpub.service';
export const LAUNCHD_LABEL = 'dev.socialpub.daemon';

export interface ServiceSpec {
  /** The program and its arguments: this CLI's `daemon run` with an absolute --data-dir. */
  command: string[];
  workingDirectory: string;
  /** The daemon's log, the file `socialpub daemon logs` reads (stdout and stderr are appended). */
  logFile: string;
}

/** One word of an ExecStart line: quoted when needed; `%` and `$` are systemd specifiers/variables. */
function systemdWord(word: string): string {
  const escaped = word.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return /^[\w@%+=:,./-]+$/.test(escaped) ? escaped : `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * A systemd user unit: started with the user's session (default.target), restarted 5 s
 * after it fails (a clean stop, `socialpub down`, stays stopped), output appended to the
 * daemon's log.
 */
export function systemdUnit(spec: ServiceSpec): string {
  return [
    '# Written by `socialpub service install`; removed by `socialpub service uninstall`.',
    '[Unit]',
    'Description=socialpub daemon (self-hosted social publishing)',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${spec.command.map(systemdWord).join(' ')}`,
    `WorkingDirectory=${systemdWord(spec.workingDirectory)}`,
    'Environment=NO_COLOR=1',
    'Restart=on-failure',
    'RestartSec=5',
    `StandardOutput=append:${spec.logFile}`,
    `StandardError=append:${spec.logFile}`,
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A launchd agent: loaded at login (RunAtLoad), started again when it exits unsuccessfully
 * (KeepAlive.SuccessfulExit = false), output appended to the daemon's log.
 */
export function launchdPlist(spec: ServiceSpec): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  <string>${LAUNCHD_LABEL}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...spec.command.map((w) => `    <string>${xml(w)}</string>`),
    '  </array>',
    '  <key>WorkingDirectory</key>',
    `  <string>${xml(spec.workingDirectory)}</string>`,
    '  <key>EnvironmentVariables</key>',
    '  <dict>',
    '    <key>NO_COLOR</key>',
    '    <string>1</string>',
    '  </dict>',
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>ThrottleInterval</key>',
    '  <integer>5</integer>',
    '  <key>StandardOutPath</key>',
    `  <string>${xml(spec.logFile)}</string>`,
    '  <key>StandardErrorPath</key>',
    `  <string>${xml(spec.logFile)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}
