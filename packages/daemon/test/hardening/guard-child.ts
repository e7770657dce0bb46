/**
 * For process-guard.test.ts: with the guard installed (unless argv[2] is "bare"), an
 * 'error' event nobody listens to, a throw in a timer and a rejection nobody handles;
 * prints "still serving" if the process lived through them. Log lines go to stdout.
 */
import { EventEmitter } from 'node:events';
import { createLogger } from '../../src/util/logger';
import { guardProcess } from '../../src/util/process-guard';

const log = createLogger({ level: 'error', write: (line) => void process.stdout.write(`${line}\n`) });
if (process.argv[2] !== 'bare') guardProcess(log);
setTimeout(() => new EventEmitter().emit('error', new Error('connect ENETUNREACH 255.255.255.255:443')), 1);
setTimeout(() => {
  throw new Error('thrown in a timer');
}, 2);
setTimeout(() => void Promise.reject(new Error('rejected and never handled')), 3);
setTimeout(() => process.stdout.write('still serving\n'), 50);
