import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What npm needs from the machine to reach the registry, kept although everything else of
 * the environment is left out (HOME and the socialpub dirs are the test's own): the CA
 * and proxy settings (NODE_EXTRA_CA_CERTS, SSL_CERT_*, HTTPS_PROXY, HTTP_PROXY, NO_PROXY,
 * any case) and npm's own settings (npm_config_*, less those pnpm sets for the scripts it
 * runs). The user's ~/.npmrc (a registry, a cafile, a proxy) stays in force through
 * npm_config_userconfig, since HOME points elsewhere.
 */
export function registryEnv(from: NodeJS.ProcessEnv): Record<string, string> {
  const pnpmOwn = new Set(['npm_config_user_agent', 'npm_config_verify_deps_before_run', 'npm_config_node_gyp', 'npm_config_frozen_lockfile']);
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(from)) {
    if (value === undefined || pnpmOwn.has(name.toLowerCase())) continue;
    if (/^(npm_config_|node_extra_ca_certs$|ssl_cert_(file|dir)$|https?_proxy$|no_proxy$|all_proxy$)/i.test(name)) kept[name] = value;
  }
  const userrc = from.HOME ? join(from.HOME, '.npmrc') : undefined;
  if (userrc && existsSync(userrc) && !Object.keys(kept).some((k) => k.toLowerCase() === 'npm_config_userconfig')) kept.npm_config_userconfig = userrc;
  return kept;
}
