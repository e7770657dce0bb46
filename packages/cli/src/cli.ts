/** The entry of dist/cli.js (the npm package's `bin`, and bin/socialpub in a checkout). */
import { start } from './start';

await start(process.argv.slice(2));
