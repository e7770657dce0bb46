import { Option } from '@commander-js/extra-typings';
import { platformDescriptions, type ConnectFlag } from '@socialpub/core';

/** The prompts of no one platform's flow (or asked by several), and the flag that answers each. */
const SHARED_QUESTIONS: Readonly<Record<string, string>> = {
  'Client secret': '--client-secret',
  'After authorizing, paste the full URL the browser was sent to': 'the URL the browser was sent to (pasted when asked: run this in a terminal)',
};

/**
 * The platforms' connect flows (in the daemon package) ask in their own words; without a
 * terminal the CLI cannot ask, and says which flag gives the answer instead (each
 * platform's description lists its questions).
 */
function flagOfQuestion(question: string): string | undefined {
  for (const d of platformDescriptions()) {
    const flag = d.connect.questions[question];
    if (flag !== undefined) return flag;
  }
  return SHARED_QUESTIONS[question];
}

/** What a prompt's usage error says is missing: the flag that answers the question. */
export function missingFlag(question: string): string {
  return flagOfQuestion(question) ?? `${question} (see --help for the flag)`;
}

/** A platform's connect flag with commander's attribute name for it (`--app-password` -> appPassword). */
export interface PlatformConnectFlag extends ConnectFlag {
  attribute: string;
  /** `--app-password`. */
  long: string;
}

/** Every platform's connect flags, from their descriptions, each once (a flag two platforms read is the first one's). */
export function platformConnectFlags(): PlatformConnectFlag[] {
  const seen = new Set<string>();
  return platformDescriptions().flatMap((d) =>
    d.connect.flags.flatMap((flag) => {
      const option = new Option(flag.flags);
      const long = option.long ?? flag.flags;
      if (seen.has(long)) return [];
      seen.add(long);
      return [{ ...flag, attribute: option.attributeName(), long }];
    }),
  );
}

/** The platforms' flags among commander's parsed options, by attribute name (only those given). */
export function givenPlatformFlags(parsed: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(platformConnectFlags().flatMap((f) => (typeof parsed[f.attribute] === 'string' ? [[f.attribute, parsed[f.attribute] as string]] : [])));
}

/** The usage errors of the platform flags given: a value outside a flag's choices, half of a pair that comes together. */
export function platformFlagProblems(given: Record<string, string>): string[] {
  const flags = platformConnectFlags();
  const problems: string[] = [];
  for (const f of flags) {
    const value = given[f.attribute];
    if (value !== undefined && f.choices && !f.choices.includes(value)) problems.push(`${f.long} is ${f.choices.join(' or ')}`);
  }
  for (const d of platformDescriptions()) {
    for (const pair of d.connect.together ?? []) {
      const [a, b] = pair.flags.map((long) => flags.find((f) => f.long === long)?.attribute);
      if (a && b && (given[a] === undefined) !== (given[b] === undefined)) problems.push(`${pair.flags[0]} and ${pair.flags[1]} come together (${pair.what})`);
    }
  }
  return problems;
}

/** The connect flow's options the platform flags fill (`--board 5497` -> boardId, `--consumer-key` -> consumerKey and auth: oauth1). */
export function connectFlowOptions(given: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of platformConnectFlags()) {
    const value = given[f.attribute];
    if (value === undefined || value === '') continue;
    out[f.option] = value;
    Object.assign(out, f.implies);
  }
  return out;
}
