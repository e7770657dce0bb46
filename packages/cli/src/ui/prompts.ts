import { Writable } from 'node:stream';
import type { Io } from '../io';
import { UsageError } from '../errors';

export interface Choice<V extends string> {
  value: V;
  name?: string;
  description?: string;
  checked?: boolean;
  disabled?: boolean | string;
}

/**
 * Every question the CLI asks goes through here. Without a terminal (or under --json)
 * nothing is asked: the missing argument is an error naming the flag that supplies it.
 * Prompts draw on stderr so stdout stays the command's result.
 */
export class Prompts {
  constructor(
    private readonly io: Io,
    private readonly enabled: boolean,
  ) {}

  get canAsk(): boolean {
    return this.enabled;
  }

  /** Throws the usage error for `missing` unless a person can be asked. */
  require(missing: string): void {
    if (!this.enabled) throw new UsageError(`missing ${missing}`, { hint: 'pass it as a flag (prompts need a terminal and no --json)' });
  }

  /**
   * A fresh output per prompt that forwards to stderr: inquirer pipes its output into
   * this and ends it when the prompt closes, which must not end our stderr (later
   * prompts and messages still write there). Terminal size passes through for layout.
   */
  private get context() {
    const target = this.io.stderr;
    const output = new Writable({
      write(chunk: Buffer, _enc, done) {
        target.write(chunk, () => done());
      },
    });
    const tty = target as Partial<NodeJS.WriteStream>;
    Object.assign(output, { isTTY: tty.isTTY ?? false, columns: tty.columns, rows: tty.rows });
    return { input: this.io.stdin, output, clearPromptOnDone: false };
  }

  private async lib() {
    return import('@inquirer/prompts');
  }

  async input(message: string, missing: string, options: { default?: string; validate?: (v: string) => true | string } = {}): Promise<string> {
    this.require(missing);
    const { input } = await this.lib();
    return input({ message, ...options }, this.context);
  }

  async password(message: string, missing: string): Promise<string> {
    this.require(missing);
    const { password } = await this.lib();
    return password({ message, mask: '*', validate: (v) => (v.trim() ? true : 'required') }, this.context);
  }

  async editor(message: string, missing: string, options: { default?: string; validate?: (v: string) => true | string } = {}): Promise<string> {
    this.require(missing);
    const { editor } = await this.lib();
    return editor({ message, waitForUserInput: false, ...options }, this.context);
  }

  async checkbox<V extends string>(message: string, missing: string, choices: readonly Choice<V>[], options: { required?: boolean } = {}): Promise<V[]> {
    this.require(missing);
    const { checkbox } = await this.lib();
    return checkbox<V>({ message, choices: choices.map((c) => ({ ...c })), required: options.required ?? false }, this.context);
  }

  async select<V extends string>(message: string, missing: string, choices: readonly Choice<V>[], options: { default?: V } = {}): Promise<V> {
    this.require(missing);
    const { select } = await this.lib();
    return select<V>({ message, choices: choices.map((c) => ({ ...c })), ...options }, this.context);
  }

  async confirm(message: string, missing: string, options: { default?: boolean } = {}): Promise<boolean> {
    this.require(missing);
    const { confirm } = await this.lib();
    return confirm({ message, ...options }, this.context);
  }
}
