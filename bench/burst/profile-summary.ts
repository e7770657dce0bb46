/**
 * Summarises a V8 .cpuprofile by self time: the top functions (name, file:line) and the top
 * modules (a package of node_modules, a directory of packages/<pkg>/src, Node's own
 * internals, GC, idle), each with its share of the sampled time.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function moduleOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1] as string;
  const pkg = /packages\/([^/]+)\/src\/(?:([^/]+)\/)?(?:([^/]+)\/)?/.exec(url);
  if (pkg) {
    const [, name, a, b] = pkg;
    // platforms/<name>/… and the like keep two levels; a file straight under src/ is the package.
    if (!a || a.endsWith('.ts')) return `${name}`;
    return b && !b.endsWith('.ts') && (a === 'platforms' || a === 'http') ? `${name}/${a}/${b}` : `${name}/${a}`;
  }
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  return url;
}

export function summarise(path: string, top = 15): string {
  const p = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const fnSelf = new Map<string, number>();
  const modSelf = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    const n = byId.get(id);
    if (!n) return;
    const { functionName, url, lineNumber } = n.callFrame;
    const file = url.replace(/^.*\/(packages|node_modules)\//, '$1/');
    const fn = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    fnSelf.set(fn, (fnSelf.get(fn) ?? 0) + dt);
    const mod = moduleOf(url, functionName);
    modSelf.set(mod, (modSelf.get(mod) ?? 0) + dt);
    total += dt;
  });
  // The profiler's own work (serialising the profile inside Profiler.stop) is not the daemon's.
  const own = modSelf.get('node:inspector') ?? 0;
  modSelf.delete('node:inspector');
  for (const k of [...fnSelf.keys()]) if (k.includes('node:inspector')) fnSelf.delete(k);
  const busy = total - own - (modSelf.get('(idle)') ?? 0);
  const table = (m: Map<string, number>) =>
    [...m]
      .filter(([k]) => k !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `  ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`)
      .join('\n');
  return [
    `sampled ${(total / 1000).toFixed(0)} ms, busy ${(busy / 1000).toFixed(0)} ms (idle ${((modSelf.get('(idle)') ?? 0) / 1000).toFixed(0)} ms, profiler ${(own / 1000).toFixed(0)} ms); shares of busy time`,
    'by module (self time):',
    table(modSelf),
    'by function (self time):',
    table(fnSelf),
  ].join('\n');
}
