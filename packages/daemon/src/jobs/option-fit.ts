import type { ErrorDetail } from '@socialpub/core';

/**
 * A job may give one platform several content types (Instagram feed and story) but has one
 * options object per platform. An option is sent to the targets it fits and left out of the
 * others (a story carries no collaborators), so a problem with a whole option
 * (`platform_options.<platform>.<field>`) counts only when every target of its platform
 * reports it: an option that fits none of them, or that is wrong whatever the type. A
 * problem inside an option (`user_tags.0.x`) always counts: the target reporting it would
 * send it.
 */
export function keepOptionIssues(issues: ErrorDetail[], targets: readonly { platform: string; type: string }[]): ErrorDetail[] {
  const typesOf = (platform: string) => new Set(targets.filter((t) => t.platform === platform).map((t) => t.type)).size;
  const reporters = new Map<string, Set<unknown>>();
  const whole = (d: ErrorDetail) => d.path.startsWith('platform_options.') && d.path.split('.').length === 3;
  for (const d of issues) {
    if (!whole(d)) continue;
    const key = `${String(d.platform)}\n${d.path}`;
    (reporters.get(key) ?? reporters.set(key, new Set()).get(key)!).add(d.type);
  }
  return issues.filter((d) => !whole(d) || (reporters.get(`${String(d.platform)}\n${d.path}`)?.size ?? 0) >= typesOf(String(d.platform)));
}
