/** A refresh (or code exchange) failed. `permanent`: the platform refused the grant (reconnect needed). */
export class TokenRefreshError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'TokenRefreshError';
  }
}
