// A loopback file server for bench/media: serves one file with its length, as a CDN
// would. Runs in its own process so it does not share an event loop with the client.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';

const file = process.argv[2];
const size = statSync(file).size;
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(size) });
  createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(res);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
