import type { DB } from '../../src/store/database';
import { createSandboxStore, type SandboxPostFilter, type SandboxStore, type StoredSandboxPost } from '../../src/store/sandbox-store';

/** The simulators' store over a test's database (null: the simulators keep memory only). */
export function sandboxStore(db: DB | null): SandboxStore | null {
  return db ? createSandboxStore(db) : null;
}

/** What the simulators received (sandbox_posts), from a test's database or a daemon's store. */
export function listSandboxPosts(from: DB | { sandbox: SandboxStore }, filter: SandboxPostFilter = {}): StoredSandboxPost[] {
  return ('sandbox' in from ? from.sandbox : createSandboxStore(from)).posts.list(filter);
}
