import type { Got } from 'got';
import { APIError } from '../errors';
import { loadGot } from '../got';
import type { HttpSender, OutgoingRequest, SentResponse } from './sender';

/**
 * The SDK's sender: got, loaded on the first request, with its retry off (the transport
 * retries) and its errors mapped to ours, got's error kept as `cause`.
 */
export class GotSender implements HttpSender {
  #got: Promise<Got> | undefined;

  private client(): Promise<Got> {
    this.#got ??= loadGot().then((got) =>
      got.extend({
        retry: { limit: 0 },
        responseType: 'text',
        throwHttpErrors: true,
        hooks: {
          // A user's abort passes through untouched; everything else becomes one of our classes, got's error as cause.
          beforeError: [(error) => (error.name === 'AbortError' ? error : APIError.from(error))],
        },
      }),
    );
    return this.#got;
  }

  async send(request: OutgoingRequest): Promise<SentResponse> {
    const got = await this.client();
    const { timeout, body, signal } = request;
    const response = await got(request.url, {
      method: request.method,
      headers: request.headers,
      ...(body === undefined ? {} : { body: body as string | Buffer }),
      timeout: request.streaming ? { connect: timeout, socket: timeout, response: timeout } : { request: timeout },
      ...(signal ? { signal } : {}),
    });
    return { statusCode: response.statusCode, body: response.body };
  }
}
