import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

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
    transform(code, id) {
      if (!/[\\/]@fullcalendar[\\/]/.test(id) || !code.includes('injectStyles')) return null;
      let out = code;
      const css = /var (css_\w+) = ("(?:[^"\\]|\\.)*");\s*\n(?:\s*internal\$1\.)?injectStyles\(\1\);/g;
      out = out.replace(css, (_all, _name: string, literal: string) => {
        const key = `sheet${sheets.size}`;
        sheets.set(key, JSON.parse(literal) as string);
        return `import 'fc-css:${key}.css';`;
      });
      // No run-time <style> element at all (it would be a CSP violation even when empty).
      out = out.replace(/if \(typeof document !== 'undefined'\) \{\s*registerStylesRoot\(document\);\s*\}/, '');
      out = out.replace('function ensureElHasStyles(el) {', 'function ensureElHasStyles(el) {\n    return;');
      return out === code ? null : { code: out, map: null };
    },
  };
}

const page = (name: string) => fileURLToPath(new URL(`./${name}.html`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [fullCalendarCss()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: { conditions: ['@socialpub/source'] },
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
