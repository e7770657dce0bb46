// The layers of every package's source, lowest first (docs/architecture.md, "Layers").
// Each entry is a folder or a file directly under packages/<pkg>/src/. A layer imports its
// own layer and those below it, never one above: eslint.config.js turns these lists into
// import-x/no-restricted-paths zones, and scripts/check-layers.mjs (run by `pnpm lint`)
// fails when an entry of a package's src/ is in no layer, or a layer names one that is gone.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** @type {Record<string, string[][]>} package folder -> its layers, lowest first */
export const LAYERS = {
  core: [
    ['version.ts', 'api-limits.ts', 'extension-limits.ts'],
    ['errors.ts', 'key-scopes.ts', 'time.ts', 'states.ts', 'event-types.ts', 'mastodon-length.ts', 'rate-limited.ts', 'reply-idempotency-key.ts', 'analytics-metrics.ts'],
    ['platforms'],
    ['platforms.ts'],
    ['caption-length.ts', 'zoned'],
    ['account-key.ts', 'plan-targets.ts'],
    ['plan-account-targets.ts', 'schemas'],
    ['routes'],
    ['index.ts'],
  ],
  sdk: [
    ['clock.ts', 'errors.ts', 'sse-parser.ts', 'got.ts', 'verify-webhook.ts', 'schemas.ts', 'pagination.ts'],
    ['options.ts', 'retry-policy.ts', 'poll.ts', 'apply-job-event.ts'],
    ['follow-events.ts'],
    ['types.ts', 'senders'],
    ['transport.ts'],
    ['resources'],
    ['client.ts'],
    ['light-client.ts', 'index.ts'],
  ],
  mcp: [
    ['backend.ts', 'next-step.ts', 'render.ts', 'rules-text.ts', 'tool-call-guard.ts', 'tool-routes.ts'],
    ['file-roots.ts', 'tool-result.ts', 'wait-for-media.ts'],
    ['resources.ts', 'connection-tools.ts'],
    ['event-notifications.ts', 'tools.ts'],
    ['server.ts'],
    ['index.ts'],
  ],
  daemon: [
    ['util'],
    // The seams (interfaces and the media types adapters receive), implemented above.
    ['ports'],
    // Network safety: the SSRF guard, pinned lookups, the safe fetcher.
    ['net'],
    // The OAuth helpers the platforms' connect flows use.
    ['oauth'],
    ['store'],
    // Several daemons over one database: who leads the once-per-cluster work, who is alive.
    ['cluster'],
    ['scheduler'],
    ['media'],
    ['platforms'],
    ['publish-concurrency.ts', 'config.ts'],
    ['connect'],
    ['events'],
    ['jobs'],
    // The inbox: comments under published posts, our replies (issue 37).
    ['inbox'],
    // Figures of published posts: the collector (yields to the publisher through a function it is given).
    ['analytics'],
    ['publisher'],
    ['admin'],
    // /mcp: the MCP transport the HTTP app serves (it calls the app back in-process, through a function it is given).
    ['mcp'],
    // The HTTP surface.
    ['http'],
    // The composition root.
    ['create-media.ts', 'compose.ts'],
    ['daemon.ts'],
    ['index.ts'],
  ],
  cli: [
    ['io.ts', 'version.ts', 'api-fields.ts', 'cache-dir.ts', 'count-input.ts'],
    ['errors.ts'],
    ['config.ts', 'option-input.ts', 'platform-name.ts', 'time-input.ts', 'scope-refusal.ts', 'ui', 'local', 'sdk-client.ts'],
    ['context.ts'],
    ['command-kit.ts', 'failure-output.ts'],
    ['program.ts'],
    ['commands'],
    ['command-table.ts', 'quick-read.ts', 'run-quick-read.ts'],
    ['main.ts'],
    ['start.ts'],
    ['loader'],
    ['cli.ts', 'binary'],
  ],
  dashboard: [
    ['env.d.ts', 'styles.css', 'lib'],
    ['components'],
    ['platforms'],
    ['screens'],
    ['app.tsx'],
    ['pages'],
  ],
};

/**
 * import-x/no-restricted-paths zones: each layer may not import from any layer above it.
 * @param {string} [base] where the packages folder is, relative to eslint's working directory
 */
export function layerZones(base = '.') {
  const zones = [];
  for (const [pkg, layers] of Object.entries(LAYERS)) {
    const path = (entry) => `${base}/packages/${pkg}/src/${entry}`;
    layers.forEach((layer, i) => {
      const above = layers.slice(i + 1).flat();
      if (above.length === 0) return;
      zones.push({
        target: layer.map(path),
        from: above.map(path),
        message: `packages/${pkg}/src: ${layer.join(', ')} sit(s) below ${above.join(', ')} (scripts/layers.mjs, docs/architecture.md "Layers").`,
      });
    });
  }
  return zones;
}

/**
 * What is wrong with the layer lists against the tree at `root`: entries of a package's src/
 * that no layer names, entries named twice, entries named that do not exist, and packages
 * with a src/ but no layers.
 * @returns {string[]} one line per problem; empty when every entry has its layer
 */
export function layerProblems(root, layers = LAYERS) {
  const problems = [];
  const packagesDir = join(root, 'packages');
  for (const pkg of readdirSync(packagesDir)) {
    const src = join(packagesDir, pkg, 'src');
    if (!existsSync(src)) continue;
    const named = layers[pkg];
    if (!named) {
      problems.push(`packages/${pkg}/src has no layers in scripts/layers.mjs`);
      continue;
    }
    const all = named.flat();
    const seen = new Set();
    for (const entry of all) {
      if (seen.has(entry)) problems.push(`packages/${pkg}/src/${entry} is in two layers`);
      seen.add(entry);
      if (!existsSync(join(src, entry))) problems.push(`packages/${pkg}/src/${entry} is in a layer but does not exist`);
    }
    for (const entry of readdirSync(src)) {
      if (!seen.has(entry)) problems.push(`packages/${pkg}/src/${entry} is in no layer: add it to scripts/layers.mjs (and docs/architecture.md)`);
    }
  }
  for (const pkg of Object.keys(layers)) {
    if (!existsSync(join(packagesDir, pkg, 'src'))) problems.push(`scripts/layers.mjs names packages/${pkg}, which has no src/`);
  }
  return problems;
}
