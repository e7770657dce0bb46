import type { Io } from '../io';

/**
 * Opens a URL in the user's browser (xdg-open, open, or start) and always prints it too,
 * so a headless machine or a failed opener still lets the user copy it.
 */
export async function openBrowser(io: Io, url: string, enabled: boolean, purpose = 'to authorize socialpub'): Promise<void> {
  io.stderr.write(`Open this address ${purpose}:\n  ${url}\n`);
  if (!enabled || !io.interactive) return;
  const opener = process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '', url] : ['xdg-open', url];
  const { execa } = await import('execa');
  const child = execa(opener[0] as string, opener.slice(1), { detached: true, stdio: 'ignore', reject: false, cleanup: false });
  child.nodeChildProcess.unref();
}
