import { INBOX_REPLY_STATES, INBOX_STATUSES, POST_SOURCES } from '@socialpub/core';

const list = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');

/**
 * The inbox (issue 37, docs/api.md "Inbox"). `inbox_items`: the comments and replies the
 * collector found under published targets, one row per comment on the network
 * (UNIQUE (connection_id, comment_id): a comment seen again is the same item). `inbox_replies`:
 * our replies, written before they are sent; `checkpoint` holds what the sender knows of
 * the network's side (the key it sent with, when), so a restart reads a reply back before
 * sending it again. `inbox_polls`: when each published target's comments are read next (the
 * decaying schedule) and the network's cursor where it has one. Times are epoch ms.
 */
export const migration220 = `
CREATE TABLE inbox_items (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  target_id TEXT NOT NULL,
  connection_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  post_id TEXT NOT NULL,
  comment_id TEXT NOT NULL,
  in_reply_to TEXT,
  thread TEXT NOT NULL DEFAULT '[]',
  author_name TEXT,
  author_handle TEXT NOT NULL,
  author_url TEXT,
  text TEXT NOT NULL,
  url TEXT,
  created_at INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'unread' CHECK (status IN (${list(INBOX_STATUSES)})),
  updated_at INTEGER NOT NULL,
  UNIQUE (connection_id, comment_id)
);
CREATE INDEX inbox_items_user_time ON inbox_items(user_id, received_at, id);
CREATE INDEX inbox_items_user_status ON inbox_items(user_id, status);

CREATE TABLE inbox_replies (
  id TEXT PRIMARY KEY,
  item_id TEXT NOT NULL REFERENCES inbox_items(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  text TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN (${list(INBOX_REPLY_STATES)})),
  source TEXT NOT NULL CHECK (source IN (${list(POST_SOURCES)})),
  checkpoint TEXT NOT NULL DEFAULT '{}',
  remote_id TEXT,
  remote_url TEXT,
  error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  sent_at INTEGER
);
CREATE INDEX inbox_replies_item ON inbox_replies(item_id);
CREATE INDEX inbox_replies_state ON inbox_replies(state);

CREATE TABLE inbox_polls (
  target_id TEXT PRIMARY KEY REFERENCES targets(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  next_at INTEGER NOT NULL,
  last_at INTEGER,
  failures INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX inbox_polls_next ON inbox_polls(next_at);
`;

/** The same tables in PostgreSQL's DDL (issue 34). */
export const migration220Postgres = `
CREATE TABLE inbox_items (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  target_id TEXT NOT NULL,
  connection_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  post_id TEXT NOT NULL,
  comment_id TEXT NOT NULL,
  in_reply_to TEXT,
  thread TEXT NOT NULL DEFAULT '[]',
  author_name TEXT,
  author_handle TEXT NOT NULL,
  author_url TEXT,
  text TEXT NOT NULL,
  url TEXT,
  created_at BIGINT NOT NULL,
  received_at BIGINT NOT NULL,
  status TEXT NOT NULL DEFAULT 'unread' CHECK (status IN (${list(INBOX_STATUSES)})),
  updated_at BIGINT NOT NULL,
  UNIQUE (connection_id, comment_id)
);
CREATE INDEX inbox_items_user_time ON inbox_items(user_id, received_at, id);
CREATE INDEX inbox_items_user_status ON inbox_items(user_id, status);

CREATE TABLE inbox_replies (
  id TEXT PRIMARY KEY,
  item_id TEXT NOT NULL REFERENCES inbox_items(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  text TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN (${list(INBOX_REPLY_STATES)})),
  source TEXT NOT NULL CHECK (source IN (${list(POST_SOURCES)})),
  checkpoint TEXT NOT NULL DEFAULT '{}',
  remote_id TEXT,
  remote_url TEXT,
  error TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  sent_at BIGINT
);
CREATE INDEX inbox_replies_item ON inbox_replies(item_id);
CREATE INDEX inbox_replies_state ON inbox_replies(state);

CREATE TABLE inbox_polls (
  target_id TEXT PRIMARY KEY REFERENCES targets(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  next_at BIGINT NOT NULL,
  last_at BIGINT,
  failures INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX inbox_polls_next ON inbox_polls(next_at);
`;
