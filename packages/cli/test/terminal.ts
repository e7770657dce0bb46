import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';

/**
 * A scripted person at a terminal: keys go into the command's stdin the way readline
 * receives them (as keypress events, like @inquirer/testing does), and `until()` waits
 * for text to appear on the command's stderr, where prompts draw. No timers: every
 * wait is for output the command writes.
 */
export class Terminal {
  readonly stdin = new PassThrough();
  private seen = 0;
  private text = '';
  private waiting: { needle: string; resolve: (screen: string) => void } | null = null;

  /** Pass as RunOptions.onStderr. */
  readonly onStderr = (all: string) => {
    this.text = stripVTControlCharacters(all);
    this.check();
  };

  /** Resolves with the output since the last match once `needle` appears in it. */
  until(needle: string): Promise<string> {
    return new Promise((resolve) => {
      this.waiting = { needle, resolve };
      this.check();
    });
  }

  private check() {
    if (!this.waiting) return;
    const i = this.text.indexOf(this.waiting.needle, this.seen);
    if (i < 0) return;
    const screen = this.text.slice(this.seen);
    this.seen = i + this.waiting.needle.length;
    const { resolve } = this.waiting;
    this.waiting = null;
    resolve(screen);
  }

  key(name: string): void {
    this.stdin.emit('keypress', null, { name });
  }

  type(text: string): void {
    this.stdin.write(text);
    for (const char of text) this.stdin.emit('keypress', null, { name: char });
  }
}
