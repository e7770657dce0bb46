import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Directories of the data dir: owner only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files of the data dir (database, -wal, -shm, secret key, config, media): owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes the data dir private, also when it already existed with looser modes: the
 * directory and every directory under it 0700, every regular file 0600. The database holds
 * emails, captions and media URLs, and a umask of 022 would leave it readable by every
 * local user. Symbolic links are left alone (never followed): chmod through one could
 * change a file outside the data dir.
 */
export function secureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir);
}

function tighten(path: string): void {
  const st = lstatSync(path);
  if (st.isDirectory()) {
    if ((st.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(path, PRIVATE_DIR_MODE);
    for (const name of readdirSync(path)) tighten(join(path, name));
  } else if (st.isFile() && (st.mode & 0o777) !== PRIVATE_FILE_MODE) {
    chmodSync(path, PRIVATE_FILE_MODE);
  }
}

/**
 * Creates `path` empty with mode 0600 when it does not exist (an empty file is a valid
 * SQLite database), else sets its mode to 0600. SQLite creates `-wal` and `-shm` with the
 * mode of the database file, so a private database file keeps them private too.
 */
export function ensurePrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // The umask may have taken bits off a new file, and an old one may be 0644.
  chmodSync(path, PRIVATE_FILE_MODE);
}
