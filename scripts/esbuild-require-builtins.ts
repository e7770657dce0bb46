import { builtinModules } from 'node:module';
import type { Options } from 'tsup';

type TsupPlugin = NonNullable<Options['plugins']>[number];

/** Every builtin but `module` (the banner imports createRequire from it: `require` does not exist before). */
const BUILTINS = new Set(builtinModules.filter((m) => m !== 'module'));

/** The end of the banner (packages/cli/tsup.config.ts), after which `require` exists. */
const BANNER_END = 'const require = __socialpubCreateRequire(import.meta.url);';

/**
 * An `import … from "fs"` in an ES module makes Node build the builtin's ESM facade, which
 * reads every export of the module, and many of them are getters that load more: `http`'s
 * `WebSocket` loads undici, `fs`'s `promises` loads fs/promises and readline, `crypto`'s
 * `webcrypto` all of WebCrypto, `process`'s `report` the report module, `util`'s
 * `parseArgs` and `diff` theirs, and so on — about 40 ms of CPU on every start for nothing
 * a command uses. This rewrites the bundle's imports of builtins into `require("fs")` (the
 * banner provides `require` through createRequire), whose exports are read only when used.
 * The requires go right after the banner, as imports are evaluated before the module's
 * code (a `const process = require("process")` in place would hide the global `process`
 * from the code above it). Runs on the output because tsup resolves builtins before
 * esbuild plugins see them. Used by the CLI's bundle (packages/cli/tsup.config.ts).
 */
export const requireBuiltins: TsupPlugin = {
  name: 'require-builtins',
  renderChunk(code) {
    const bannerEnd = code.indexOf(BANNER_END);
    if (bannerEnd === -1) return undefined;
    let n = 0;
    const hoisted: string[] = [];
    const out = code.replace(
      /^import (?:(\w+)(?:, )?)?(?:\{([^}]*)\})?(?:\* as (\w+))? from "((?:node:)?[\w/]+)";$/gm,
      (whole, def: string | undefined, named: string | undefined, ns: string | undefined, specifier: string) => {
        const id = specifier.replace(/^node:/, '');
        if (!BUILTINS.has(id)) return whole;
        const lines: string[] = [];
        const name = def ?? ns ?? `__socialpubBuiltin${(n += 1)}`;
        lines.push(`const ${name} = require(${JSON.stringify(id)});`);
        if (named?.trim()) {
          const pairs = named
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean)
            .map((p) => p.replace(/^(\w+) as (\w+)$/, '$1: $2'));
          lines.push(`const { ${pairs.join(', ')} } = ${name};`);
        }
        hoisted.push(lines.join(' '));
        return '';
      },
    );
    if (hoisted.length === 0) return undefined;
    const at = out.indexOf(BANNER_END) + BANNER_END.length;
    return { code: `${out.slice(0, at)}\n${hoisted.join('\n')}${out.slice(at)}` };
  },
};
