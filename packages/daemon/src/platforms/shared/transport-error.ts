/**
 * No answer arrived from a platform (timeout, reset, refused, DNS). `sent` is false only
 * when the request certainly never left (see `wasSent`), which is what lets a creating
 * call be retried instead of being reported as an unknown outcome. Each platform's client
 * throws its own subclass so its error mapper recognises its own failures.
 */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly sent: boolean,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = 'TransportError';
  }
}
