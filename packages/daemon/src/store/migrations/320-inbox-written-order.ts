/**
 * The inbox lists comments by when their authors wrote them, newest first (docs/api.md
 * "Inbox"): the time every surface shows. Its pages walk (created_at, id) on an index; the
 * index on received_at served the old order only, so it goes.
 */
export const migration320 = `
CREATE INDEX inbox_items_user_written ON inbox_items(user_id, created_at, id);
DROP INDEX inbox_items_user_time;
`;

export const migration320Postgres = migration320;
