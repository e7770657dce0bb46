/**
 * Deleting our own replies from the network (issue 37, docs/api.md "Inbox"): a sent reply
 * keeps its row and gains `deleted_at`, when socialpub deleted it there (null while it is up).
 */
export const migration250 = `
ALTER TABLE inbox_replies ADD COLUMN deleted_at INTEGER;
`;

export const migration250Postgres = `
ALTER TABLE inbox_replies ADD COLUMN deleted_at BIGINT;
`;
