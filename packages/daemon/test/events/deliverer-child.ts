/**
 * The webhook side of a daemon for the SIGKILL test: the events module (hub, deliverer)
 * over the SQLite file argv[2] with the secret key in the same directory. Prints "ready".
 */
import { dirname } from 'node:path';
import { resolveConfig } from '../../src/config';
import { createEvents } from '../../src/events/create-events';
import { openDatabase } from '../../src/store/database';
import { createStore } from '../../src/store/store';
import { systemClock } from '../../src/util/clock';
import { silentLogger } from '../../src/util/logger';
import { SecretBox } from '../../src/util/secrets';

const dbPath = process.argv[2];
if (!dbPath) throw new Error('usage: deliverer-child.ts <db>');
const config = resolveConfig({ dataDir: dirname(dbPath), webhookAllowPrivate: true }, {});
const db = openDatabase(dbPath);
const secrets = SecretBox.fromKeyFile(config.secretKeyPath);
const store = createStore(db, { secrets, clock: systemClock });
const events = createEvents({ store, secrets, clock: systemClock, logger: silentLogger, config });
events.start();
events.lead();
process.stdout.write('ready\n');
