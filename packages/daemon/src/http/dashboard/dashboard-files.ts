/**
 * Where the dashboard's built files (packages/dashboard/dist: index.html, signin.html,
 * review-link.html, assets/*) come from. In a checkout or under the tests, from the
 * workspace's packages/dashboard/dist; the CLI bundle (the npm package) carries a copy in
 * dist/dashboard beside itself and says so before the daemon starts; the single
 * executable serves them from its embedded assets (`dashboard/<path>`). Node modules are
 * loaded when first needed: every command's start-up imports this file.
 */
export interface DashboardFiles {
  /** The bytes of a file at a relative path already checked by `safeRelativePath`, or null when there is no such file. */
  read(relPath: string): Uint8Array | null;
  /** Where they come from, for the log and errors. */
  readonly source: string;
}

let provide: () => DashboardFiles | null = () => dirDashboardFiles(workspaceDist());
let files: DashboardFiles | null | undefined;

/** Says where the dashboard comes from. `load` runs once, when the daemon first serves a page. */
export function useDashboardFiles(load: () => DashboardFiles | null): void {
  provide = load;
  files = undefined;
}

/** The dashboard's files, or null when this build carries none. */
export function dashboardFiles(): DashboardFiles | null {
  if (files === undefined) files = provide();
  return files;
}

/** packages/dashboard/dist, seen from packages/daemon/src/http/dashboard/. */
function workspaceDist(): string {
  return process.getBuiltinModule('node:url').fileURLToPath(new URL('../../../../dashboard/dist/', import.meta.url));
}

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * A request path below the dashboard's root as a relative file path, or null when it is
 * not one we serve: every segment plain (letters, digits, `_`, `-`, `.`; no leading dot,
 * so no `..`, no hidden file), no empty segment, no backslash, no encoded separator.
 */
export function safeRelativePath(path: string): string | null {
  if (path.length === 0 || path.length > 512) return null;
  const segments = path.split('/');
  if (!segments.every((s) => SEGMENT.test(s))) return null;
  return segments.join('/');
}

/** The files of a directory on disk (null when it holds no index.html: no dashboard built there). */
export function dirDashboardFiles(dir: string): DashboardFiles | null {
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  const root = path.resolve(dir);
  if (!fs.existsSync(path.join(root, 'index.html'))) return null;
  // Files read before, kept while their size and time are unchanged (a rebuild shows at once).
  const cache = new Map<string, { real: string; size: number; mtimeMs: number; bytes: Uint8Array }>();
  return {
    source: root,
    read(relPath) {
      const full = path.resolve(root, relPath);
      // safeRelativePath already refused `..`; this guards a caller that did not use it.
      if (!full.startsWith(root + path.sep)) return null;
      try {
        const known = cache.get(relPath);
        if (known) {
          const now = fs.statSync(full);
          if (now.isFile() && now.size === known.size && now.mtimeMs === known.mtimeMs) return known.bytes;
          cache.delete(relPath);
        }
        // Not a symlink out of the directory, not a directory (no listings).
        const real = fs.realpathSync(full);
        if (!real.startsWith(fs.realpathSync(root) + path.sep)) return null;
        const stat = fs.statSync(real);
        if (!stat.isFile()) return null;
        const bytes = fs.readFileSync(real);
        if (cache.size < 1000) cache.set(relPath, { real, size: stat.size, mtimeMs: stat.mtimeMs, bytes });
        return bytes;
      } catch {
        return null;
      }
    },
  };
}

/** The name of the manifest (a JSON array of relative paths) the single executable embeds beside `dashboard/<path>` assets. */
export const DASHBOARD_MANIFEST_ASSET = 'dashboard-manifest.json';

/** The dashboard embedded in the single executable (scripts/build-binary.ts), or null when it was built without one. */
export function assetDashboardFiles(getAsset: (name: string) => ArrayBuffer | undefined): DashboardFiles | null {
  const manifest = getAsset(DASHBOARD_MANIFEST_ASSET);
  if (manifest === undefined) return null;
  const names = new Set(JSON.parse(new TextDecoder().decode(manifest)) as string[]);
  if (!names.has('index.html')) return null;
  const cache = new Map<string, Uint8Array>();
  return {
    source: 'the executable',
    read(relPath) {
      if (!names.has(relPath)) return null;
      let bytes = cache.get(relPath);
      if (!bytes) {
        const asset = getAsset(`dashboard/${relPath}`);
        if (asset === undefined) return null;
        bytes = new Uint8Array(asset);
        cache.set(relPath, bytes);
      }
      return bytes;
    },
  };
}
