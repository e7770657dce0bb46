import { join } from 'node:path';
import { openDatabase, type DB } from '../../src/store/database';

/** A WAL database on disk (socialpub.db in `dir`) with a one-column table t (v TEXT). */
export function walFileDb(dir: string): { db: DB; path: string } {
  const path = join(dir, 'socialpub.db');
  const db = openDatabase(path);
  db.exec('CREATE TABLE t (v TEXT)');
  return { db, path };
}
