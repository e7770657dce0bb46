import got, { type Got, type OptionsInit, type Response } from 'got';
import { parseJsonText } from './parse-json-text';
import type { ResponseHeaders } from './response-header';
import type { TransportError } from './transport-error';
import { wasSent } from './was-sent';

/** An answer of a JSON API: its status, its body as text and as JSON (see parseJsonText), and its headers. */
export interface JsonAnswer {
  status: number;
  ok: boolean;
  text: string;
  body: unknown;
  headers: ResponseHeaders;
}

/**
 * One request through got (`http`, or got itself), its answer read as JSON whatever its
 * status. When no answer arrives, throws the platform's own TransportError subclass
 * (`noAnswer`, its message `noAnswerMessage` followed by the cause), saying whether the
 * request certainly never left (see wasSent).
 */
export async function exchangeJson(
  http: Got | undefined,
  url: string,
  opts: OptionsInit,
  noAnswer: new (message: string, code: string | undefined, sent: boolean, options: { cause?: unknown }) => TransportError,
  noAnswerMessage: string,
): Promise<JsonAnswer> {
  let res: Response<string>;
  try {
    res = (await (http ?? got)(url, opts)) as Response<string>;
  } catch (err) {
    throw new noAnswer(noAnswerMessage + (err as Error).message, (err as { code?: string }).code, wasSent(err), { cause: err });
  }
  const { text, body } = parseJsonText(res.body);
  return { status: res.statusCode, ok: res.statusCode >= 200 && res.statusCode < 300, text, body, headers: res.headers };
}
