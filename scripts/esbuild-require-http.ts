import type { Options } from 'tsup';

type TsupPlugin = NonNullable<Options['plugins']>[number];

/**
 * `import … from "http"` in an ES module makes Node build the module's ESM facade, which
 * reads every export of `http`; its `WebSocket`, `CloseEvent` and `MessageEvent` getters
 * load undici, about 40 ms of CPU on every start for nothing a command uses. This rewrites
 * the bundle's imports of `http` into `require("http")` (the banner provides `require`
 * through createRequire), whose exports are read only when used. Runs on the output
 * because tsup resolves builtins before esbuild plugins see them. Used by the CLI's bundle
 * (packages/cli/tsup.config.ts).
 */
export const requireHttp: TsupPlugin = {
  name: 'require-http',
  renderChunk(code) {
    let n = 0;
    const out = code.replace(/^import (?:(\w+)(?:, )?)?(?:\{([^}]*)\})?(?:\* as (\w+))? from "(?:node:)?http";$/gm, (_m, def: string | undefined, named: string | undefined, ns: string | undefined) => {
      const lines: string[] = [];
      const name = def ?? ns ?? `__socialpubHttp${(n += 1)}`;
      lines.push(`const ${name} = require("http");`);
      if (named?.trim()) {
        const pairs = named.split(',').map((p) => p.trim()).filter(Boolean).map((p) => p.replace(/^(\w+) as (\w+)$/, '$1: $2'));
        lines.push(`const { ${pairs.join(', ')} } = ${name};`);
      }
      return lines.join(' ');
    });
    return out === code ? undefined : { code: out };
  },
};
