import { ACCOUNT_LABEL_PATTERN } from '@socialpub/core';

/** An account the user already has on the network: its label and the page (or organization) it publishes to. */
export interface LabelledAccount {
  label: string;
  pageId: string | null;
  isDefault: boolean;
}

/** `Café Müller & Co.` -> `caf-m-ller-co`: a label made of a name (the pattern's characters, at most 32). */
function slug(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 32)
    .replace(/[-_]+$/, '');
  return ACCOUNT_LABEL_PATTERN.test(s) ? s : 'page';
}

/**
 * The labels of the accounts one connect makes when the person chose several pages (or
 * organizations) of one login, one connection each (issue 39). The first chosen takes the
 * label the connect was asked for (null: kept as asked, the default account's); each other
 * takes the label its page already has among the user's accounts of the network (it is
 * connected again, in place), else one made of its name that no other account uses
 * (`brand-page`, then `brand-page-2`…).
 */
export function labelsForChoices(existing: readonly LabelledAccount[], chosen: readonly { id: string | null; name: string }[], first: string | null): (string | null)[] {
  const taken = new Set(existing.map((a) => a.label));
  if (first !== null) taken.add(first);
  const out: (string | null)[] = [];
  chosen.forEach((c, i) => {
    if (i === 0) {
      out.push(first);
      return;
    }
    // Not the account the first choice replaces (the one labelled as asked, or the default one).
    const own = existing.find((a) => a.pageId === c.id && (first === null ? !a.isDefault : a.label !== first) && !out.includes(a.label));
    if (own) {
      out.push(own.label);
      return;
    }
    const base = slug(c.name);
    let label = base;
    for (let n = 2; taken.has(label) || out.includes(label); n++) label = `${base.slice(0, 32 - String(n).length - 1)}-${n}`;
    taken.add(label);
    out.push(label);
  });
  return out;
}
