/**
 * The Idempotency-Key a tool of ours sends with a reply written by a person (the
 * dashboard's Send reply, the CLI's `inbox reply`): made of the comment and the text, so a
 * double click, or the same command run again, is one reply. The daemon keeps a key for
 * 24 h per user and route (POST /inbox/{id}/reply); a different text is a different reply.
 */
export function replyIdempotencyKey(source: 'dash' | 'cli', itemId: string, text: string): string {
  // An id that could not be in a key (a mistyped one, answered 404) goes in as its digest, so the answer is about the id, not the key.
  const item = /^[\x21-\x7e]{1,100}$/.test(itemId) ? itemId : digest(itemId);
  return `${source}-${item}-${digest(text)}`;
}

/** A short stable digest of a text (FNV-1a, 32 bits): the same in every process and version. */
function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}
