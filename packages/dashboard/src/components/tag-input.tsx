import { useState } from 'preact/hooks';

/**
 * A list of short texts (YouTube tags, Instagram collaborators, Bluesky languages) as chips:
 * type one and press Enter (or a comma, or Add); each chip has its own Remove button.
 */
export function TagInput({ label, help, value, onChange }: { label: string; help?: string | undefined; value: readonly string[]; onChange(next: string[] | undefined): void }) {
  const [text, setText] = useState('');
  const add = (raw: string) => {
    const items = raw
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t && !value.includes(t));
    if (items.length) onChange([...value, ...items]);
    setText('');
  };
  return (
    <div role="group" aria-label={label} class="tag-input">
      <span class="field-label">{label}</span>
      {value.length > 0 && (
        <ul class="chips" aria-label={`${label}: added`}>
          {value.map((t) => (
            <li key={t} class="chip">
              <span class="caption-text">{t}</span>{' '}
              <button type="button" aria-label={`Remove ${t}`} onClick={() => onChange(value.length > 1 ? value.filter((x) => x !== t) : undefined)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <span class="row">
        <input
          type="text"
          aria-label={`Add to ${label}`}
          value={text}
          onInput={(e) => {
            const v = e.currentTarget.value;
            if (v.includes(',')) add(v);
            else setText(v);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add(text);
            }
          }}
        />
        <button type="button" onClick={() => add(text)} disabled={!text.trim()}>
          Add
        </button>
      </span>
      {help && <small class="help">{help}</small>}
    </div>
  );
}
