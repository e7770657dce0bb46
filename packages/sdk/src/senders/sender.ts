export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One attempt of a request, as the transport hands it to a sender. */
export interface OutgoingRequest {
  method: HttpMethod;
  url: string;
  /** Every header, lower-case names (the transport's defaults, the client's, the call's). */
  headers: Record<string, string>;
  /** JSON text, raw bytes, or a stream (an upload, read once per attempt). */
  body?: string | Uint8Array | AsyncIterable<Uint8Array> | undefined;
  /** Milliseconds; see `streaming`. */
  timeout: number;
  /**
   * An upload: it may rightly take longer than any fixed limit, so `timeout` bounds the
   * connection, each silence on the socket and the wait for the answer, not the whole.
   * Otherwise `timeout` bounds the whole attempt, from sending to the last byte read.
   */
  streaming: boolean;
  signal?: AbortSignal | undefined;
}

/** A 2xx answer: its status and its body as text. */
export interface SentResponse {
  statusCode: number;
  body: string;
}

/**
 * Sends one attempt and reads the whole answer. A non-2xx status, a connection error or a
 * time-out rejects with the matching APIError (the sender's own error as `cause`); an abort
 * rejects with whatever the signal was aborted with or an AbortError. Retries are the
 * transport's, never the sender's.
 */
export interface HttpSender {
  send(request: OutgoingRequest): Promise<SentResponse>;
}
