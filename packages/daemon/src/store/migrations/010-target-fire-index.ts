/**
 * The scheduler's scan order. A target fires at its backoff time when it has one, else at
 * its due time; the loader and the overdue sweep read scheduled targets in that order,
 * keyed by (fire time, id) so batches can resume exactly where the last one stopped.
 * The expression must match FIRE_AT in store/target-queue.ts character for character, or
 * SQLite will not use the index.
 */
export const migration010 = `
CREATE INDEX targets_status_fire ON targets(status, COALESCE(next_attempt_at, due_at), id);
CREATE INDEX targets_status_lease ON targets(status, lease_until);
`;
