import type { FollowUpRules } from './description';
import { platformDescriptions } from './registry';

/** `a, b and c` (`a` alone, `a and b`). */
export function listInWords(names: readonly string[], last = 'and'): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)}`;
}

/** Every platform's identifier in the registry's order, in words: `instagram, facebook, ... and pinterest`. */
export function platformsInWords(last = 'and'): string {
  return listInWords(
    platformDescriptions().map((d) => d.id),
    last,
  );
}

/** The platforms with a follow-up rule, in words. */
export function platformsWithInWords(rule: keyof FollowUpRules, last = 'and'): string {
  return listInWords(
    platformDescriptions()
      .filter((d) => d.followUps[rule])
      .map((d) => d.id),
    last,
  );
}

/** Where take-downs work: `facebook, twitter, ...; instagram when connected through Facebook Login` (from each description's `takedown`). */
export function takedownsInWords(): string {
  const ds = platformDescriptions();
  const always = ds.filter((d) => d.takedown === true).map((d) => d.id);
  const when = ds.flatMap((d) => (typeof d.takedown === 'string' ? [`${d.id} ${d.takedown}`] : []));
  return [always.join(', '), ...when].join('; ');
}

/** The platforms whose API deletes no posts, in words (`tiktok`). */
export function noTakedownsInWords(): string {
  return listInWords(
    platformDescriptions()
      .filter((d) => d.takedown === false)
      .map((d) => d.id),
  );
}
