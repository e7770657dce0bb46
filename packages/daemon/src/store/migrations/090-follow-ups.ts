/**
 * Reply chains and first comments (issue 13): the request's `thread` and `first_comment`
 * on the job (JSON, {} when none), and on each target what became of them — the post ids
 * of the follow-up parts already out and the comment's id or error (JSON, {} when none).
 */
export const migration090 = `
ALTER TABLE jobs ADD COLUMN follow_ups TEXT NOT NULL DEFAULT '{}';
ALTER TABLE targets ADD COLUMN follow_ups TEXT NOT NULL DEFAULT '{}';
`;
