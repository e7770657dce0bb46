import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { optionWords } from '../lib/option-words';
import { typeOf, withField, type OptionSchema } from '../lib/option-schema';
import { PollEditor } from './poll-editor';
import { TagInput } from './tag-input';

/** A union (Mastodon's alt_text: one text, or one per item) is edited as its simplest form. */
function simplest(s: OptionSchema): OptionSchema {
  if (!s.anyOf) return s;
  const plain = s.anyOf.find((a) => ['string', 'number', 'integer', 'boolean'].includes(typeOf(a) ?? ''));
  return { ...(plain ?? s.anyOf[0]!), description: s.description ?? plain?.description };
}

export interface OptionFieldProps {
  platform: string;
  /** The option's path: `privacy_level`, `poll.duration_minutes`. */
  path: string;
  schema: OptionSchema;
  value: unknown;
  onChange(next: unknown): void;
  /** Only these of the schema's enum values (TikTok: the privacy levels the creator has now). */
  allowed?: readonly unknown[] | undefined;
}

/**
 * One platform option with the control its schema calls for, labelled and explained in words
 * (core's optionWords): a choice named as the network names it, yes/no, a number, a text,
 * chips for a list of texts, boxes for a list of choices, a poll editor, rows for a list of
 * objects (Instagram's tagged people). Never JSON to type. `undefined` leaves the option out
 * (the network's or the connection's default).
 */
export function OptionField({ platform, path, schema: raw, value, onChange, allowed }: OptionFieldProps) {
  const id = useId();
  const schema = simplest(raw);
  const t = typeOf(schema);
  const words = optionWords(platform, path, schema.description);
  const help = words.help ? <small class="help" id={`${id}-help`}>{words.help}</small> : null;
  const described = words.help ? { 'aria-describedby': `${id}-help` } : {};
  const name = (v: unknown) => words.choices?.[String(v)] ?? String(v);

  if (schema.enum) {
    const values = allowed ?? schema.enum;
    return (
      <label class="column">
        {words.label}
        <select value={value === undefined ? '' : String(value)} onChange={(e) => onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value)} {...described}>
          <option value="">(default)</option>
          {values.map((v) => (
            <option key={String(v)} value={String(v)}>
              {name(v)}
            </option>
          ))}
        </select>
        {help}
      </label>
    );
  }
  if (t === 'boolean') {
    return (
      <label class="column">
        {words.label}
        <select value={value === undefined ? '' : value ? 'yes' : 'no'} onChange={(e) => onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value === 'yes')} {...described}>
          <option value="">(default)</option>
          <option value="yes">Yes</option>
          <option value="no">No</option>
        </select>
        {help}
      </label>
    );
  }
  if (t === 'integer' || t === 'number') {
    return (
      <label class="column">
        {words.label}
        <input
          type="number"
          min={schema.minimum}
          max={schema.maximum}
          step={t === 'integer' ? 1 : 'any'}
          value={value === undefined ? '' : String(value)}
          onInput={(e) => onChange(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
          {...described}
        />
        {help}
      </label>
    );
  }
  if (t === 'array' && schema.items) {
    const items = simplest(schema.items);
    const list = Array.isArray(value) ? (value as unknown[]) : [];
    if (items.enum) {
      return (
        <fieldset class="choices">
          <legend>{words.label}</legend>
          {items.enum.map((v) => (
            <label key={String(v)}>
              <input
                type="checkbox"
                checked={list.includes(v)}
                onChange={(e) => {
                  const next = e.currentTarget.checked ? [...list, v] : list.filter((x) => x !== v);
                  onChange(next.length ? next : undefined);
                }}
              />{' '}
              {name(v)}
            </label>
          ))}
          {help}
        </fieldset>
      );
    }
    if (typeOf(items) === 'object' && items.properties) {
      return <ObjectRows platform={platform} path={path} label={words.label} help={help} schema={items} rows={list as Record<string, unknown>[]} max={schema.maxItems} onChange={onChange} />;
    }
    return <TagInput label={words.label} help={words.help} value={list.map(String)} onChange={onChange} />;
  }
  if (t === 'object' && schema.properties) {
    const obj = (value ?? {}) as Record<string, unknown>;
    if (schema.properties.options?.items) {
      const poll = obj;
      const others = Object.entries(schema.properties).filter(([k, s]) => k !== 'options' && typeOf(s) === 'boolean');
      return (
        <PollEditor platform={platform} path={path} schema={schema} value={value as Record<string, unknown> | undefined} onChange={onChange}>
          {others.map(([k, s]) => (
            <OptionField key={k} platform={platform} path={`${path}.${k}`} schema={s} value={poll[k]} onChange={(v) => onChange(withField(poll, k, v))} />
          ))}
        </PollEditor>
      );
    }
    return (
      <fieldset>
        <legend>{words.label}</legend>
        {Object.entries(schema.properties).map(([k, s]) => (
          <OptionField key={k} platform={platform} path={`${path}.${k}`} schema={s} value={obj[k]} onChange={(v) => onChange(withField(obj, k, v))} />
        ))}
        {help}
      </fieldset>
    );
  }
  return (
    <label class="column">
      {words.label}
      <input type="text" value={value === undefined ? '' : String(value)} onInput={(e) => onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value)} {...described} />
      {help}
    </label>
  );
}

/** A list of objects (Instagram's tagged people, LinkedIn's mentions): a row of fields each, added and removed by buttons. */
function ObjectRows({ platform, path, label, help, schema, rows, max, onChange }: { platform: string; path: string; label: string; help: ComponentChildren; schema: OptionSchema; rows: Record<string, unknown>[]; max?: number | undefined; onChange(next: unknown): void }) {
  const set = (i: number, row: Record<string, unknown> | undefined) => {
    const next = rows.map((r, j) => (j === i ? (row ?? {}) : r));
    onChange(next);
  };
  return (
    <fieldset>
      <legend>{label}</legend>
      {rows.map((row, i) => (
        <div role="group" aria-label={`${label} ${i + 1}`} class="row object-row" key={i}>
          {Object.entries(schema.properties ?? {}).map(([k, s]) => (
            <OptionField key={k} platform={platform} path={`${path}.${k}`} schema={s} value={row[k]} onChange={(v) => set(i, withField(row, k, v))} />
          ))}
          <button type="button" onClick={() => onChange(rows.length > 1 ? rows.filter((_, j) => j !== i) : undefined)}>
            Remove {label.toLowerCase()} {i + 1}
          </button>
        </div>
      ))}
      {(max === undefined || rows.length < max) && (
        <button type="button" onClick={() => onChange([...rows, {}])}>
          Add to {label.toLowerCase()}
        </button>
      )}
      {help}
    </fieldset>
  );
}
