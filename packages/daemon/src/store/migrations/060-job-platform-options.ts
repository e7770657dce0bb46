/** Jobs: the per-platform options of the publish request (platform_options), as JSON; {} for jobs without. */
export const migration060 = `
ALTER TABLE jobs ADD COLUMN platform_options TEXT NOT NULL DEFAULT '{}';
`;
