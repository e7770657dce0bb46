/** The part of an option's JSON Schema (GET /platforms) the form reads. */
export interface OptionSchema {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: OptionSchema;
  properties?: Record<string, OptionSchema>;
  anyOf?: OptionSchema[];
}

/** A schema's one type (a nullable field lists two). */
export const typeOf = (s: OptionSchema) => (Array.isArray(s.type) ? s.type[0] : s.type);

/** The object with one field set (or removed); undefined when nothing is left. */
export function withField(obj: Record<string, unknown>, key: string, v: unknown): Record<string, unknown> | undefined {
  const next = { ...obj };
  if (v === undefined) delete next[key];
  else next[key] = v;
  return Object.keys(next).length ? next : undefined;
}

