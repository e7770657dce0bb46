import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createLogger, defineConfig, type Plugin } from 'vite';

/**
 * FullCalendar 6 puts its CSS into a `<style>` element it creates at run time, which a strict
 * Content-Security-Policy (`style-src 'self'`, no 'unsafe-inline') refuses (fullcalendar
 * #7104, #7353). This moves that CSS into the build's own stylesheet instead: each
 * `injectStyles(css_x)` call becomes an import of a virtual .css module holding the same
 * text, and the run-time `<style>` element is never created. Versions are pinned exactly,
 * and the browser tests fail on any CSP violation, so a FullCalendar change that this no
 * longer matches shows at once.
 */
function fullCalendarCss(): Plugin {
  const sheets = new Map<string, string>();
  const fonts = new Map<string, Buffer>();
  /** FullCalendar's icon font is a data: URL, which `font-src 'self'` refuses: it becomes a file of the build. */
  const fontToFile = (css: string) =>
    css.replace(/url\(["']?data:application\/x-font-ttf;charset=utf-8;base64,([A-Za-z0-9+/=]+)["']?\)/g, (_all, b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      const name = `assets/fcicons-${createHash('sha256').update(bytes).digest('hex').slice(0, 10)}.ttf`;
      fonts.set(name, bytes);
      return `url(/${name})`;
    });
  return {
    name: 'socialpub-fullcalendar-css',
    enforce: 'pre',
    resolveId(id) {
      return id.startsWith('\0fc-css:') || id.startsWith('fc-css:') ? `\0${id.replace(/^\0/, '')}` : null;
    },
    load(id) {
      if (!id.startsWith('\0fc-css:')) return null;
      return sheets.get(id.slice('\0fc-css:'.length).replace(/\.css$/, '')) ?? '';
    },
    generateBundle() {
      for (const [fileName, source] of fonts) this.emitFile({ type: 'asset', fileName, source });
    },
    transform(code, id) {
      if (!/[\\/]@fullcalendar[\\/]/.test(id) || !code.includes('injectStyles')) return null;
      let out = code;
      const css = /var (css_\w+) = ("(?:[^"\\]|\\.)*");\s*\n(?:\s*internal\$1\.)?injectStyles\(\1\);/g;
      out = out.replace(css, (_all, _name: string, literal: string) => {
        const key = `sheet${sheets.size}`;
        sheets.set(key, fontToFile(JSON.parse(literal) as string));
        return `import 'fc-css:${key}.css';`;
      });
      // No run-time <style> element at all (it would be a CSP violation even when empty).
      out = out.replace(/if \(typeof document !== 'undefined'\) \{\s*registerStylesRoot\(document\);\s*\}/, '');
      out = out.replace('function ensureElHasStyles(el) {', 'function ensureElHasStyles(el) {\n    return;');
      return out === code ? null : { code: out, map: null };
    },
  };
}

/** Vite's log, without its note that the icon font's URL (a file this plugin emits) is left for run time. */
const logger = createLogger();
const warnOnce = logger.warnOnce.bind(logger);
logger.warnOnce = (msg, opts) => {
  if (!/\/assets\/fcicons-\w+\.ttf referenced in/.test(msg)) warnOnce(msg, opts);
};

const page = (name: string) => fileURLToPath(new URL(`./${name}.html`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  customLogger: logger,
  plugins: [fullCalendarCss()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No polyfill script: every browser the dashboard supports has modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    rollupOptions: { input: { index: page('index'), signin: page('signin'), 'review-link': page('review-link') } },
  },
});
