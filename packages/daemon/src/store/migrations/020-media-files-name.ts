/**
 * Media: the display name of a prepared file (the last segment of its prepared_url),
 * and an index for the sweeper's "is this file still needed" check by token.
 */
export const migration020 = `
ALTER TABLE media_files ADD COLUMN name TEXT;
CREATE INDEX media_tasks_status ON media_tasks(status);
`;
