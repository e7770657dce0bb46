import type { Io } from '../io';

/** The part of ora the commands use; a silent stand-in when there is no terminal. */
export interface Spinner {
  text: string;
  start(text?: string): Spinner;
  succeed(text?: string): Spinner;
  fail(text?: string): Spinner;
  warn(text?: string): Spinner;
  info(text?: string): Spinner;
  stop(): Spinner;
}

/**
 * A spinner on stderr when a person is watching; under --json or without a terminal it
 * prints nothing while spinning and only the final line when not under --json, so logs
 * of a script stay readable and stdout stays clean.
 */
export async function createSpinner(io: Io, { json, color }: { json: boolean; color: boolean }): Promise<Spinner> {
  if (json) return new SilentSpinner(() => undefined);
  if (!io.interactive) return new SilentSpinner((line) => io.stderr.write(`${line}\n`));
  const { default: ora } = await import('ora');
  return ora({ stream: io.stderr as NodeJS.WritableStream, isEnabled: true, color: color ? 'cyan' : false, discardStdin: false });
}

class SilentSpinner implements Spinner {
  text = '';
  constructor(private readonly write: (line: string) => void) {}
  start(text?: string) {
    if (text !== undefined) this.text = text;
    return this;
  }
  private end(mark: string, text?: string) {
    this.write(`${mark} ${text ?? this.text}`);
    return this;
  }
  succeed(text?: string) {
    return this.end('✔', text);
  }
  fail(text?: string) {
    return this.end('✖', text);
  }
  warn(text?: string) {
    return this.end('⚠', text);
  }
  info(text?: string) {
    return this.end('ℹ', text);
  }
  stop() {
    return this;
  }
}
