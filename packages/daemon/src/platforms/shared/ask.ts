import { ConnectError } from '../../oauth/connect-error';
import type { ConnectIO } from '../../oauth/connect-io';

/** Asks for a value unless it was given (flags), trimming it; empty is refused unless `optional`. */
export async function ask(io: ConnectIO, given: string | undefined, question: string, opts: { secret?: boolean; optional?: boolean } = {}): Promise<string> {
  const v = (given ?? (await io.prompt(question, { secret: opts.secret }))).trim();
  if (!v && !opts.optional) throw new ConnectError(`${question.replace(/ \(.*\)$/, '')} is required`);
  return v;
}
