import type { MediaErrorCode, MediaKind } from '@socialpub/core';
import type { DB } from './database';
import { createOutboxWriter, type OutboxWriter, type StoredData } from './outbox';

export type TaskStatus = 'processing' | 'completed' | 'failed';
export type FileStatus = 'pending' | 'fetching' | 'ready' | 'failed' | 'expired';

export interface TaskRow {
  id: string;
  user_id: string;
  status: TaskStatus;
  error_code: string | null;
  error_message: string | null;
  deadline_at: number;
  created_at: number;
  updated_at: number;
}

export interface FileRow {
  id: string;
  task_id: string;
  position: number;
  original_url: string;
  status: FileStatus;
  token: string;
  kind: MediaKind | null;
  mime_type: string | null;
  size: number | null;
  sha256: string | null;
  /** File name inside the media files dir (the token). */
  path: string | null;
  name: string | null;
  error_code: MediaErrorCode | null;
  error_message: string | null;
  prepared_at: number | null;
  expires_at: number | null;
  updated_at: number;
}

export interface FileWithUser extends FileRow {
  user_id: string;
}

export interface ReadyFile {
  kind: MediaKind;
  mimeType: string;
  size: number;
  sha256: string;
  path: string;
  name: string;
  preparedAt: number;
  expiresAt: number;
}

/** Targets that will still publish: their job's prepared media must stay on disk. */
const LIVE_TARGETS = "('pending_approval', 'changes_requested', 'scheduled', 'publishing')";

/** media_tasks and media_files; statements prepared once. */
export class MediaStore {
  readonly #db: DB;
  readonly #s;
  readonly #outbox: OutboxWriter;

  constructor(db: DB) {
    this.#db = db;
    this.#outbox = createOutboxWriter(db);
    this.#s = {
      insertTask: db.prepare(
        `INSERT INTO media_tasks (id, user_id, status, deadline_at, created_at, updated_at) VALUES (?, ?, 'processing', ?, ?, ?)`,
      ),
      insertFile: db.prepare(
        `INSERT INTO media_files (id, task_id, position, original_url, status, token, updated_at) VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
      ),
      task: db.prepare('SELECT * FROM media_tasks WHERE id = ?'),
      files: db.prepare('SELECT * FROM media_files WHERE task_id = ? ORDER BY position'),
      processing: db.prepare(`SELECT id FROM media_tasks WHERE status = 'processing' ORDER BY created_at`).pluck(),
      fetching: db.prepare(`UPDATE media_files SET status = 'fetching', updated_at = ? WHERE id = ? AND status IN ('pending', 'fetching')`),
      backToPending: db.prepare(`UPDATE media_files SET status = 'pending', updated_at = ? WHERE id = ? AND status = 'fetching'`),
      ready: db.prepare(
        `UPDATE media_files SET status = 'ready', kind = ?, mime_type = ?, size = ?, sha256 = ?, path = ?, name = ?,
           prepared_at = ?, expires_at = ?, error_code = NULL, error_message = NULL, updated_at = ? WHERE id = ?`,
      ),
      failed: db.prepare(
        `UPDATE media_files SET status = 'failed', error_code = ?, error_message = ?, updated_at = ? WHERE id = ? AND status IN ('pending', 'fetching')`,
      ),
      finishTask: db.prepare<[TaskStatus, string | null, string | null, number, string], TaskRow>(
        `UPDATE media_tasks SET status = ?, error_code = ?, error_message = ?, updated_at = ? WHERE id = ? AND status = 'processing' RETURNING *`,
      ),
      byToken: db.prepare(
        'SELECT f.*, t.user_id FROM media_files f JOIN media_tasks t ON t.id = f.task_id WHERE f.token = ?',
      ),
      library: db.prepare(
        `SELECT f.* FROM media_files f JOIN media_tasks t ON t.id = f.task_id
          WHERE t.user_id = ? AND f.status = 'ready' AND f.expires_at > ? ORDER BY f.prepared_at DESC, f.id DESC LIMIT ?`,
      ),
      dueForExpiry: db.prepare(
        `SELECT f.*, t.user_id FROM media_files f JOIN media_tasks t ON t.id = f.task_id
          WHERE f.status = 'ready' AND f.expires_at <= ? ORDER BY f.expires_at LIMIT ?`,
      ),
      expire: db.prepare(`UPDATE media_files SET status = 'expired', path = NULL, updated_at = ? WHERE id = ? AND status = 'ready'`),
      // A prepared URL is recognised by its token, so a changed public base URL still matches.
      retained: db
        .prepare(
          `SELECT EXISTS (
             SELECT 1 FROM targets tg JOIN jobs j ON j.id = tg.job_id
              WHERE tg.status IN ${LIVE_TARGETS}
                AND EXISTS (SELECT 1 FROM json_each(j.media_urls) m WHERE instr(m.value, '/files/' || ? || '/') > 0))`,
        )
        .pluck(),
      purgeTasks: db.prepare(
        `DELETE FROM media_tasks WHERE status != 'processing' AND updated_at < ?
           AND NOT EXISTS (SELECT 1 FROM media_files f WHERE f.task_id = media_tasks.id AND f.status = 'ready')`,
      ),
    };
  }

  createTask(task: { id: string; userId: string; deadlineAt: number; now: number }, files: { id: string; url: string; token: string }[]): void {
    this.#db
      .transaction(() => {
        this.#s.insertTask.run(task.id, task.userId, task.deadlineAt, task.now, task.now);
        files.forEach((f, i) => this.#s.insertFile.run(f.id, task.id, i, f.url, f.token, task.now));
      })
      .immediate();
  }

  /**
   * An uploaded file (POST /media/upload): its task, already completed, and the file,
   * already ready, in one transaction, so no half-recorded upload is ever resumed.
   */
  recordUpload(task: { id: string; userId: string; now: number }, file: { id: string; url: string; token: string }, ready: ReadyFile): void {
    this.#db
      .transaction(() => {
        this.#s.insertTask.run(task.id, task.userId, task.now, task.now, task.now);
        this.#s.insertFile.run(file.id, task.id, 0, file.url, file.token, task.now);
        this.#s.ready.run(ready.kind, ready.mimeType, ready.size, ready.sha256, ready.path, ready.name, ready.preparedAt, ready.expiresAt, task.now, file.id);
        this.#finish('completed', null, task.now, task.id);
      })
      .immediate();
  }

  /** processing -> completed/failed, and its media.task_completed / media.task_failed event in the same transaction. */
  #finish(status: 'completed' | 'failed', error: { code: string; message: string } | null, now: number, id: string): void {
    const r = this.#s.finishTask.get(status, error?.code ?? null, error?.message ?? null, now, id);
    if (!r) return;
    // A completed task has no error (finishTask's callers pass none with completed).
    const data: StoredData<'media.task_completed' | 'media.task_failed'> =
      r.status === 'completed'
        ? { task_id: r.id, status: 'completed', error: null }
        : { task_id: r.id, status: 'failed', error: r.error_code === null ? null : { code: r.error_code, message: r.error_message as string } };
    this.#outbox.append({ userId: r.user_id, type: `media.task_${data.status}`, subject: r.id, data, at: r.updated_at });
  }

  task(id: string): TaskRow | undefined {
    return this.#s.task.get(id) as TaskRow | undefined;
  }

  files(taskId: string): FileRow[] {
    return this.#s.files.all(taskId) as FileRow[];
  }

  processingTaskIds(): string[] {
    return this.#s.processing.all() as string[];
  }

  markFetching(id: string, now: number): boolean {
    return this.#s.fetching.run(now, id).changes === 1;
  }

  /** After a shutdown or crash: the file starts again from the beginning. */
  markPending(id: string, now: number): void {
    this.#s.backToPending.run(now, id);
  }

  markReady(id: string, file: ReadyFile, now: number): void {
    this.#s.ready.run(file.kind, file.mimeType, file.size, file.sha256, file.path, file.name, file.preparedAt, file.expiresAt, now, id);
  }

  markFailed(id: string, code: MediaErrorCode, message: string, now: number): void {
    this.#s.failed.run(code, message, now, id);
  }

  finishTask(id: string, status: 'completed' | 'failed', error: { code: string; message: string } | null, now: number): void {
    this.#db.transaction(() => this.#finish(status, error, now, id)).immediate();
  }

  byToken(token: string): FileWithUser | undefined {
    return this.#s.byToken.get(token) as FileWithUser | undefined;
  }

  /** A user's prepared files not yet expired, newest first (the media library). */
  library(userId: string, now: number, limit: number): FileRow[] {
    return this.#s.library.all(userId, now, limit) as FileRow[];
  }

  dueForExpiry(now: number, limit: number): FileWithUser[] {
    return this.#s.dueForExpiry.all(now, limit) as FileWithUser[];
  }

  markExpired(id: string, now: number): void {
    this.#s.expire.run(now, id);
  }

  /** True while a target that will still publish uses this prepared file (whoever's job it is). */
  isRetained(token: string): boolean {
    return this.#s.retained.get(token) === 1;
  }

  /** Forgets finished tasks last touched before `before` whose files are all gone. */
  purgeTasks(before: number): number {
    return this.#s.purgeTasks.run(before).changes;
  }
}
