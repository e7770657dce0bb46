import { createServer } from 'node:http';
import { listenOnLoopback, type Listening } from './listen';

/** A 1x1 PNG: real bytes, so the daemon's format sniffing accepts it as an image. */
export const PNG_BYTES = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export type FileServer = Listening;

/** Serves /photo.png (an image) and /login.html (an HTML page, which preparation refuses) on 127.0.0.1. */
export async function startFileServer(): Promise<FileServer> {
  const server = createServer((req, res) => {
    if (req.url === '/photo.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG_BYTES.length) });
      res.end(PNG_BYTES);
    } else if (req.url === '/login.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><body>Sign in to continue</body></html>');
    } else {
      res.writeHead(404).end();
    }
  });
  return listenOnLoopback(server);
}
