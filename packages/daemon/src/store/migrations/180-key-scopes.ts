/**
 * The scopes of API keys (issue 39; core's key-scopes.ts): what a key may do. Every key
 * made before is `full`, which is what it could do. The list is frozen here as shipped, like
 * 001's statuses: a scope added later widens the CHECK in its own migration.
 */
const KEY_SCOPES_180 = ['full', 'agent', 'read'];

export const migration180 = `
ALTER TABLE api_keys ADD COLUMN scope TEXT NOT NULL DEFAULT 'full' CHECK (scope IN (${KEY_SCOPES_180.map((s) => `'${s}'`).join(', ')}));
`;
