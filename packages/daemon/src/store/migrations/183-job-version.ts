/**
 * A job's content version (issue 35, item 8): 1 when stored, one more on each edit of
 * what it publishes (caption, platform captions, platform options). A review-link
 * decision names the version it was made on and is refused once the post changed since;
 * an edit of a post under an approval rule sends it back to review (jobs/approval-rule.ts).
 * content_source: how the last content edit came (api, mcp, cli), null while the content
 * is as created (then `source` says): agent-approval asks who wrote what waits for approval.
 */
export const migration183 = `
ALTER TABLE jobs ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE jobs ADD COLUMN content_source TEXT;
`;
