// One preparation in a fresh process, so its peak RSS is the preparation's own
// (plus Node, tsx and SQLite). Prints JSON: {ms, size, sha256, maxRssBytes}.
import { join } from 'node:path';
import { AddressGuard } from '../../packages/daemon/src/net/address-guard';
import { MediaService } from '../../packages/daemon/src/media/media-service';
import { MediaStore } from '../../packages/daemon/src/store/media-files';
import { openDatabase } from '../../packages/daemon/src/store/database';

async function main(): Promise<void> {
  const [url, dir] = process.argv.slice(2) as [string, string];
  const db = openDatabase(join(dir, 'socialpub.db'));
  db.prepare('INSERT OR IGNORE INTO users (id, email, created_at) VALUES (?, ?, ?)').run('bench', 'bench@example.com', 0);
  // Loopback is private: allowed here as SOCIALPUB_MEDIA_ALLOW_PRIVATE=1 would.
  const media = new MediaService({ files: new MediaStore(db), dir: join(dir, 'media'), publicBaseUrl: 'http://127.0.0.1:8787', guard: new AddressGuard({ allowPrivate: true }) });
  const started = performance.now();
  const { taskId } = media.prepare('bench', [url]);
  await media.settled(taskId);
  const ms = performance.now() - started;
  const status = media.status(taskId)?.status;
  if (status?.status !== 'completed') throw new Error(`preparation failed: ${JSON.stringify(status)}`);
  const file = status.files[0];
  await media.close();
  db.close();
  process.stdout.write(`${JSON.stringify({ ms, size: file?.size, sha256: file?.sha256, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
