import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import type { MediaStatus } from '@socialpub/core';
import { AddressGuard, type HostResolver } from '../../src/net/address-guard';
import type { AddressCheck } from '../../src/net/address-policy';
import { MediaService, type MediaServiceOptions } from '../../src/media/media-service';
import { MediaStore } from '../../src/store/media-files';
import type { ShareHosts } from '../../src/media/share-hosts';
import { openDatabase, type DB } from '../../src/store/database';
import type { AppEnv } from '../../src/http/env';
import { ApiError } from '../../src/http/errors';

/** Tiny files with valid headers, one per accepted format (and some refused ones). */
export const SAMPLES = {
  jpeg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'), Buffer.alloc(64, 7), Buffer.from([0xff, 0xd9])]),
  png: Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    Buffer.from([0, 0, 0, 13]),
    Buffer.from('IHDR', 'latin1'),
    Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]),
    Buffer.alloc(40, 1),
  ]),
  gif: Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([1, 0, 1, 0, 0x80, 0, 0]), Buffer.alloc(20, 2), Buffer.from(';')]),
  mp4: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\x02\0isommp41', 'latin1'), Buffer.from([0, 0, 0, 8]), Buffer.from('free', 'latin1'), Buffer.alloc(100, 3)]),
  mov: Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftypqt  \0\0\0\0qt  ', 'latin1'), Buffer.from([0, 0, 0, 8]), Buffer.from('wide', 'latin1'), Buffer.alloc(100, 4)]),
  movNoFtyp: Buffer.concat([Buffer.from([0, 0, 0, 8]), Buffer.from('wide', 'latin1'), Buffer.from([0, 0, 0, 0x10]), Buffer.from('mdat', 'latin1'), Buffer.alloc(100, 5)]),
  avi: Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([0x80, 0, 0, 0]), Buffer.from('AVI LIST', 'latin1'), Buffer.alloc(120, 6)]),
  webp: Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([0x40, 0, 0, 0]), Buffer.from('WEBPVP8 ', 'latin1'), Buffer.alloc(60, 0)]),
  heic: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'), Buffer.alloc(40, 0)]),
  zip: Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(60, 9)]),
  pdf: Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1'),
  html: Buffer.from('<!DOCTYPE html>\n<html><head><title>Sign in - Dropbox</title></head><body><form>…</form></body></html>'),
};

/** The accepted samples: name in SAMPLES, the kind they are judged to be, and their MIME type. */
export const ACCEPTED_FORMATS = [
  ['jpeg', 'image', 'image/jpeg'],
  ['png', 'image', 'image/png'],
  ['gif', 'image', 'image/gif'],
  ['mp4', 'video', 'video/mp4'],
  ['mov', 'video', 'video/quicktime'],
  ['movNoFtyp', 'video', 'video/quicktime'],
  ['avi', 'video', 'video/x-msvideo'],
  // LinkedIn document posts.
  ['pdf', 'document', 'application/pdf'],
] as const;

/** Hex SHA-256, as media statuses report it. */
export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

export interface TestServer {
  /** http://127.0.0.1:<port> (or the host it listens on). */
  origin: string;
  port: number;
  /** TCP connections accepted so far. */
  connections: number;
  /** Requests seen, as `host path?query` with the Host header's name (no port). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A local HTTP server. `routes` maps `<host name><path>` (or just `<path>`) to a
 * handler, so one server can play several services told apart by their Host header.
 */
export async function startServer(routes: Record<string, Handler> | Handler, host = '127.0.0.1'): Promise<TestServer> {
  const state = { connections: 0, requests: [] as string[] };
  const server = http.createServer((req, res) => {
    const hostName = (req.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    state.requests.push(`${hostName} ${url.pathname}${url.search}`);
    const handler = typeof routes === 'function' ? routes : (routes[`${hostName}${url.pathname}`] ?? routes[url.pathname]);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    handler(req, res, url);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers with a body and a content type. */
export const send =
  (body: Buffer | string, type = 'application/octet-stream', extra: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra }).end(body);
  };

export const redirect =
  (location: string | ((url: URL) => string), status = 302): Handler =>
  (_req, res, url) => {
    res.writeHead(status, { location: typeof location === 'function' ? location(url) : location }).end();
  };

/** Every name resolves to 127.0.0.1: lets tests use the services' real host names. */
export const loopbackResolver: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'sp-media-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function addUser(db: DB, id = 'user-1', email = `${id}@example.com`): string {
  db.prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)').run(id, email, 0);
  return id;
}

export interface Harness {
  db: DB;
  dir: string;
  media: MediaService;
  userId: string;
  cleanup(): Promise<void>;
}

/** A media service over a fresh SQLite file and media dir, fetching through an injectable guard. */
export function harness(
  options: Partial<MediaServiceOptions> & { allowPrivate?: boolean; resolve?: HostResolver; check?: AddressCheck; hosts?: ShareHosts; dbPath?: string; dir?: string } = {},
): Harness {
  const tmp = options.dir ? { dir: options.dir, cleanup: () => {} } : tempDir();
  const db = openDatabase(options.dbPath ?? join(tmp.dir, 'socialpub.db'));
  const userId = 'user-1';
  if (!db.prepare('SELECT 1 FROM users WHERE id = ?').get(userId)) addUser(db, userId);
  const guard = options.guard ?? new AddressGuard({ allowPrivate: options.allowPrivate ?? true, resolve: options.resolve ?? loopbackResolver, check: options.check });
  const media = new MediaService({ publicBaseUrl: 'http://127.0.0.1:8787', ...options, files: new MediaStore(db), dir: join(tmp.dir, 'media'), guard });
  return {
    db,
    dir: tmp.dir,
    media,
    userId,
    async cleanup() {
      await media.close();
      db.close();
      tmp.cleanup();
    },
  };
}

/** Prepares and waits until the task's background work ends. */
export async function prepareAndWait(media: MediaService, userId: string, urls: string[]) {
  const { taskId } = media.prepare(userId, urls);
  await media.settled(taskId);
  const found = media.status(taskId);
  if (!found) throw new Error('task vanished');
  return { taskId, status: finished(found.status) };
}

export type FinishedStatus = Exclude<MediaStatus, { status: 'processing' }>;

/** The status of a task that has ended (fails the test when it is still processing). */
export function finished(status: MediaStatus): FinishedStatus {
  if (status.status === 'processing') throw new Error(`task ${status.task_id} is still processing`);
  return status;
}

/** An app like app.ts's: the routes mounted, a user from X-Test-User, errors as the one body. */
export function testApp(mount: (app: Hono<AppEnv>) => void): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('/api/*', async (c, next) => {
    c.set('user', { id: c.req.header('x-test-user') ?? 'user-1', email: 'x@example.com' } as never);
    await next();
  });
  mount(app);
  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json(err.body(), err.status as 400);
    return c.json({ success: false, error: { code: 'internal', message: String(err) } }, 500);
  });
  return app;
}
