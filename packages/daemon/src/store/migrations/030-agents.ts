/**
 * Agents (MCP): each job records how it was created, and each user has the
 * agent-approval setting (MCP-created jobs wait in pending_approval). Users that exist
 * when this runs keep today's behaviour (off); users created afterwards — every user of a
 * new data dir — start with it on.
 */
export const migration030 = `
ALTER TABLE jobs ADD COLUMN source TEXT NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'mcp', 'cli'));
ALTER TABLE users ADD COLUMN agent_approval INTEGER NOT NULL DEFAULT 1 CHECK (agent_approval IN (0, 1));
UPDATE users SET agent_approval = 0;
`;
