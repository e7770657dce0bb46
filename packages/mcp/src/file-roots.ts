import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { BackendError } from './backend';

/**
 * Which local files upload_file may read (issue 28: it read any file the user could,
 * `/etc/shadow` and the daemon's secret.key included, so a prompt-injected agent could
 * publish any picture or video on the machine).
 *
 * - The directories the user configured (`socialpub mcp --file-root <dir>`, or
 *   SOCIALPUB_MCP_FILE_ROOT, several joined by the path delimiter) when there are any;
 * - else the roots the MCP client declares (the `roots` capability: `roots/list`, asked
 *   again after `notifications/roots/list_changed`); only `file://` roots count;
 * - else nothing: every upload is refused, saying how to allow a folder.
 *
 * A path is allowed when the file it names, with every symbolic link resolved, lies inside
 * an allowed directory (itself resolved): `..` and links that lead out are refused. The
 * caller reads the resolved path it is given back, never the one it was sent.
 */
export interface FileRoots {
  /** The resolved path of `path` (relative to `cwd`) when it is an allowed regular file; else a 400 BackendError. */
  check(path: string): Promise<string>;
}

export interface FileRootsOptions {
  /** The MCP server whose client is asked for its roots. */
  server: Server;
  /** Directories the user configured; when non-empty the client's roots are not asked. */
  configured: readonly string[];
  /** Where relative paths start (the server's working directory). */
  cwd: string;
}

const HOW = 'start `socialpub mcp --file-root <dir>` (or set SOCIALPUB_MCP_FILE_ROOT), or let your MCP client declare the folder as a root';

export function fileRoots({ server, configured, cwd }: FileRootsOptions): FileRoots {
  let clientRoots: Promise<string[]> | null = null;
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    clientRoots = null;
  });

  async function allowedDirs(): Promise<{ dirs: string[]; from: string }> {
    if (configured.length > 0) return { dirs: [...configured], from: 'the configured file roots' };
    if (!server.getClientCapabilities()?.roots) return { dirs: [], from: 'none: this MCP client declares no roots' };
    clientRoots ??= server
      .listRoots()
      .then((r) => r.roots.filter((x) => x.uri.startsWith('file://')).map((x) => fileURLToPath(x.uri)))
      .catch((error: unknown) => {
        clientRoots = null;
        throw refuse(`could not ask the MCP client for its roots (${(error as Error).message}); ${HOW}`);
      });
    return { dirs: await clientRoots, from: "the MCP client's roots" };
  }

  return {
    async check(path) {
      const { dirs, from } = await allowedDirs();
      const wanted = resolve(cwd, path);
      if (dirs.length === 0) throw refuse(`upload_file reads files only under allowed folders, and there are ${from}; ${HOW}`);
      let real: string;
      try {
        real = await realpath(wanted);
      } catch (error) {
        throw refuse(`cannot read ${wanted}: ${(error as Error).message}`);
      }
      const inside: string[] = [];
      for (const dir of dirs) {
        const realDir = await realpath(resolve(cwd, dir)).catch(() => null);
        if (realDir !== null) inside.push(realDir);
        if (realDir !== null && within(realDir, real)) {
          const s = await stat(real).catch((error: unknown) => {
            throw refuse(`cannot read ${wanted}: ${(error as Error).message}`);
          });
          if (!s.isFile()) throw refuse(`${wanted} is not a file`);
          return real;
        }
      }
      const shown = real === wanted ? wanted : `${wanted} (which leads to ${real})`;
      throw refuse(`${shown} is outside the folders upload_file may read (${from}: ${inside.join(', ') || dirs.join(', ')}); ${HOW}`);
    },
  };
}

function within(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function refuse(message: string): BackendError {
  return new BackendError({ status: 400, code: 'invalid_request', message, details: [{ path: 'path', message }] });
}
