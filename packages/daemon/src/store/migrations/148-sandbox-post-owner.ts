/**
 * Each simulated post records which sandbox connection made it: the account key of the
 * request's token (`sandbox_at_<key>.<secret>`, platforms/shared/sim/sandbox-caller.ts),
 * so `GET /sandbox/posts` and MCP `list_sandbox_posts` show a user only the posts of their
 * own sandbox connections (issue 28: user A read user B's sandbox captions). Posts made
 * before this have no key: the API shows them to nobody; `socialpub sandbox posts` (the
 * machine's admin) still lists every post.
 */
export const migration148 = `
ALTER TABLE sandbox_posts ADD COLUMN account_key TEXT;
CREATE INDEX sandbox_posts_account ON sandbox_posts(platform, account_key, created_at);
`;
