/** A response body as text and as JSON: `{}` when empty, undefined when it is not JSON (the caller then reports the text). */
export function parseJsonText(raw: unknown): { text: string; body: unknown } {
  const text = typeof raw === 'string' ? raw : String(raw ?? '');
  try {
    return { text, body: text ? JSON.parse(text) : {} };
  } catch {
    return { text, body: undefined };
  }
}
