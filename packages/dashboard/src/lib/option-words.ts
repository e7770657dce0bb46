import { platformDescription, type OptionWords } from '@socialpub/core/platforms';

/** "share_to_feed" -> "Share to feed": the last resort for an option core has no words for (a platform registered from outside). */
function fromName(path: string): string {
  const last = path.split('.').pop() ?? path;
  const words = last.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An option schema's description without the API's name in front ("post_info.is_aigc: labels …" -> "Labels …"). */
function helpFrom(description: string | undefined): string | undefined {
  if (!description) return undefined;
  const rest = description.replace(/^[\w.[\]{}-]+[:.]\s+/, '');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/**
 * An option in a person's words: its label, help and choices from the platform's module in
 * core (`optionWords`), keyed by its path (`poll.duration_minutes`); the schema's own
 * description serves as help where core gives none.
 */
export function optionWords(platform: string, path: string, description?: string): OptionWords {
  const w = platformDescription(platform)?.optionWords?.[path];
  const help = w?.help ?? helpFrom(description);
  return { label: w?.label ?? fromName(path), ...(help ? { help } : {}), ...(w?.choices ? { choices: w.choices } : {}) };
}

/** One value of an option as the network names it ("Only me" for SELF_ONLY); else the value. */
export function choiceName(platform: string, path: string, value: string): string {
  return platformDescription(platform)?.optionWords?.[path]?.choices?.[value] ?? value;
}
