/**
 * The daemon process of the inbox crash test: the real inbox service (its reply sender) and
 * the Mastodon and Bluesky comment clients over the data dir argv[2] (socialpub.db and
 * secret.key, as the daemon opens them), replying through the simulators the test process
 * serves at argv[3] (so what was made survives this process being killed). Prints "ready"
 * once started; exits on SIGTERM.
 */
import { join } from 'node:path';
import { createInboxService } from '../../src/inbox/inbox-service';
import { createCommentClients } from '../../src/platforms/registry';
import { openDatabase } from '../../src/store/database';
import { createStore } from '../../src/store/store';
import { systemClock } from '../../src/util/clock';
import { silentLogger } from '../../src/util/logger';
import { SecretBox } from '../../src/util/secrets';
import { childArgs } from './publishing-child';

const [dataDir, simUrl] = childArgs('inbox-child.ts', ['data dir', 'simulator url']) as [string, string];
const db = openDatabase(join(dataDir, 'socialpub.db'));
const store = createStore(db, { secrets: SecretBox.fromKeyFile(join(dataDir, 'secret.key')), clock: systemClock });
const calls = { credentials: store.credentials, clock: systemClock, logger: silentLogger, sandboxBaseUrl: (_p: string, host: string) => `${simUrl}/${host}` };
const inbox = createInboxService({ store, clock: systemClock, logger: silentLogger, clients: createCommentClients(), calls, timeoutMs: 5_000 });
inbox.start(200);
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void inbox.stop().then(() => {
    store.commits.close();
    db.close();
    process.exit(0);
  });
});
