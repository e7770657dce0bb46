/** A connect flow cannot go on; the message tells the user what to do. */
export class ConnectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectError';
  }
}
