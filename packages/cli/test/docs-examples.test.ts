import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from './daemon-harness';
import { JPEG } from './media-samples';
import { argv } from './helpers';

/**
 * The commands in docs/cli.md's shell blocks, run as written against a real daemon with
 * sandbox connections, so an example cannot break silently. A command the suite cannot
 * run here (it starts a second daemon on a fixed port, or needs a person at a terminal)
 * is listed with the reason; a new example is neither until someone decides, and fails.
 */
const doc = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');

/** Each command of every ```sh block: continuation lines joined, comments and `bin/` dropped. */
function shellExamples(markdown: string): string[] {
  const out: string[] = [];
  for (const [, block = ''] of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block.replace(/\\\n\s*/g, '').split('\n')) {
      const command = line.replace(/\s+#.*$/, '').trim();
      if (command) out.push(command.replace(/(^|\s)bin\/socialpub /g, '$1socialpub '));
    }
  }
  return out;
}

const NOT_RUN: Record<string, string> = {
  './scripts/setup && socialpub up': 'installs and builds the checkout (CI runs scripts/setup itself)',
  'socialpub up': 'starts a background daemon on the default port 8787 (daemon-lifecycle.test.ts runs up with --port 0)',
  'socialpub up --port 9000 --data-dir ./data': 'starts a background daemon on a fixed port (daemon-lifecycle.test.ts runs up with --port 0)',
  'socialpub publish': 'asks for everything in a terminal (interactive-publish.test.ts drives it)',
};


let t: Awaited<ReturnType<typeof startTestDaemon>>;
let cwd: string;
beforeAll(async () => {
  t = await startTestDaemon();
  // Files the examples name, in the directory they run in.
  cwd = join(t.root, 'work');
  mkdirSync(cwd);
  writeFileSync(join(cwd, 'photo.jpg'), JPEG);
});
afterAll(async () => {
  await t.stop();
});

describe('the examples of docs/cli.md', () => {
  // Each once: X refuses the same tweet twice, as the simulator does (the doc shows one twice).
  const examples = [...new Set(shellExamples(doc))];

  it('are each run below or set aside with a reason', () => {
    expect(examples.length).toBeGreaterThan(8);
    for (const e of examples) expect(e in NOT_RUN || e.startsWith('socialpub '), e).toBe(true);
  });

  it('run as written, in order, against a daemon with sandbox connections', async () => {
    // The tour's accounts: what the examples publish to.
    t.connect('facebook', 'instagram');
    const ran: string[] = [];
    for (const example of examples) {
      if (example in NOT_RUN) continue;
      // A redirect (`> file`) is the shell's part; the command must print the script.
      const [command = '', redirect] = example.split(/\s+>\s+/);
      const r = await t.run(argv(command).slice(1), { cwd });
      expect(r.code, `${example}\n${r.stderr}`).toBe(0);
      if (redirect) expect(r.stdout.length, example).toBeGreaterThan(200);
      ran.push(example);
    }
    expect(ran).toEqual(expect.arrayContaining(['socialpub connect twitter --sandbox', 'socialpub publish "hello" -p twitter --now --wait']));
    expect(ran.length).toBe(examples.filter((e) => !(e in NOT_RUN)).length);
  });
});
