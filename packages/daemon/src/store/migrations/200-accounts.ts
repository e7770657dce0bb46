/**
 * Several accounts of one network per user (issue 39, docs/api.md "Accounts"). A
 * connection gains a `label` (unique per user and network) and `is_default` (exactly one
 * per user and network: the account a bare network name in `platforms` means); migration
 * 001's UNIQUE (user_id, platform) gives way to UNIQUE (user_id, platform, label).
 *
 * Existing connections become their network's default account, labelled `default` (the
 * label `socialpub connect` gives an account when none is named, so a database migrated
 * from one account per network reads the same as a new one connected the same way).
 *
 * A row written without them (an older tool's INSERT) is the network's default account
 * labelled `default`, as every connection was; a second such row for one network is
 * refused by the one-default index as migration 001's UNIQUE refused it.
 *
 * SQLite cannot drop a table constraint, so `connections` is rebuilt: nothing references
 * it (no foreign key; 040's trigger on it was dropped by 160), and 170's index is made again.
 *
 * A target records the connection it publishes through (`connection_id`; backfilled from
 * the user's connection of its network) and `account_key`: the `platforms` entry that
 * asked for it as written (`twitter:brand`), the key of its per-target fields; NULL for a
 * bare network name, whose key is the network.
 */
export const migration200 = `
CREATE TABLE connections_new (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  platform TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT 'default',
  is_default INTEGER NOT NULL DEFAULT 1 CHECK (is_default IN (0, 1)),
  mode TEXT NOT NULL CHECK (mode IN ('live', 'sandbox')),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'expired')),
  status_reason TEXT,
  account_id TEXT,
  account_name TEXT,
  page_id TEXT,
  page_name TEXT,
  secrets_enc TEXT,
  token_expires_at INTEGER,
  refresh_expires_at INTEGER,
  token_obtained_at INTEGER,
  meta TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (user_id, platform, label)
);
INSERT INTO connections_new (id, user_id, platform, label, is_default, mode, status, status_reason, account_id, account_name,
  page_id, page_name, secrets_enc, token_expires_at, refresh_expires_at, token_obtained_at, meta, created_at, updated_at)
SELECT id, user_id, platform, 'default', 1, mode, status, status_reason, account_id, account_name,
  page_id, page_name, secrets_enc, token_expires_at, refresh_expires_at, token_obtained_at, meta, created_at, updated_at
FROM connections;
DROP TABLE connections;
ALTER TABLE connections_new RENAME TO connections;
CREATE INDEX connections_sandbox_account ON connections(account_id) WHERE mode = 'sandbox';
CREATE UNIQUE INDEX connections_one_default ON connections(user_id, platform) WHERE is_default = 1;

ALTER TABLE targets ADD COLUMN connection_id TEXT;
ALTER TABLE targets ADD COLUMN account_key TEXT;
UPDATE targets SET connection_id = (SELECT c.id FROM connections c WHERE c.user_id = targets.user_id AND c.platform = targets.platform);
`;
