import type { ComponentChildren } from 'preact';
import { typeOf, withField, type OptionSchema } from '../lib/option-schema';
import { optionWords } from '../lib/option-words';
import { durationWords } from './poll-preview';

/** Lengths a poll is commonly left open, in minutes; those the network allows are offered. */
const LENGTHS = [5, 30, 60, 360, 1440, 4320, 10080];

/**
 * A poll as a person writes one: a field per choice (Add a choice, up to the network's most;
 * Remove), how long it stays open as a choice of lengths in words, and the network's other poll
 * settings (Mastodon: several choices, hidden totals: `children`). The length's field is the schema's
 * other number (`duration_minutes` on X, `expires_in` seconds on Mastodon).
 */
export function PollEditor({ platform, path, schema, value, onChange, children }: { platform: string; path: string; schema: OptionSchema; value: Record<string, unknown> | undefined; onChange(next: unknown): void; children?: ComponentChildren }) {
  const poll = value ?? {};
  const props = schema.properties ?? {};
  const choices = Array.isArray(poll.options) ? (poll.options as string[]) : [];
  const max = props.options?.maxItems ?? 4;
  const shown = choices.length >= 2 ? choices : [...choices, ...Array(2 - choices.length).fill('')];
  const lengthKey = Object.keys(props).find((k) => k !== 'options' && ['integer', 'number'].includes(typeOf(props[k]!) ?? ''));
  const unit = lengthKey?.endsWith('_minutes') ? 1 : 1 / 60;
  const lengthSchema = lengthKey ? props[lengthKey]! : undefined;
  const offered = LENGTHS.filter((m) => !lengthSchema || ((lengthSchema.minimum ?? 0) <= m / unit && m / unit <= (lengthSchema.maximum ?? Infinity)));
  const words = optionWords(platform, path, schema.description);
  const setChoices = (next: string[]) => {
    const kept = next.some((c) => c.trim()) ? next : [];
    let out = withField(poll, 'options', kept.length ? kept : undefined);
    // A poll with choices is open a day unless a length is chosen.
    if (kept.length && lengthKey && out?.[lengthKey] === undefined) out = withField(out ?? {}, lengthKey, 1440 / unit);
    if (!kept.length && lengthKey) out = out ? withField(out, lengthKey, undefined) : undefined;
    onChange(out);
  };
  return (
    <fieldset class="poll-editor">
      <legend>{words.label}</legend>
      {words.help && <small class="help">{words.help}</small>}
      {shown.map((c, i) => (
        <span class="row" key={i}>
          <label>
            Choice {i + 1} <input type="text" value={c} onInput={(e) => setChoices(shown.map((x, j) => (j === i ? e.currentTarget.value : x)))} />
          </label>
          {shown.length > 2 && (
            <button type="button" onClick={() => setChoices(shown.filter((_, j) => j !== i))}>
              Remove choice {i + 1}
            </button>
          )}
        </span>
      ))}
      {shown.length < max && (
        <button type="button" onClick={() => setChoices([...shown, ''])}>
          Add a choice
        </button>
      )}
      {lengthKey && (
        <label class="column">
          {optionWords(platform, `${path}.${lengthKey}`).label}
          <select value={poll[lengthKey] === undefined ? '' : String(Number(poll[lengthKey]) * unit)} onChange={(e) => onChange(withField(poll, lengthKey, e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value) / unit))}>
            <option value="">(choose)</option>
            {offered.map((m) => (
              <option key={m} value={String(m)}>
                {durationWords(m)}
              </option>
            ))}
          </select>
        </label>
      )}
      {children}
    </fieldset>
  );
}
