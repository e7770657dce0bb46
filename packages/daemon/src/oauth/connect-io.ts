/** All terminal I/O goes through these, so the CLI keeps prompts and output. */
export interface ConnectIO {
  prompt(question: string, opts?: { secret?: boolean }): Promise<string>;
  choose<T>(question: string, choices: { label: string; value: T }[]): Promise<T>;
  /**
   * One or more of the choices, where each chosen one becomes a connection of its own
   * (several Facebook pages, LinkedIn organizations of one login). Optional: a terminal or
   * page that cannot ask it is asked `choose`, for one.
   */
  chooseMany?<T>(question: string, choices: { label: string; value: T }[]): Promise<T[]>;
  print(line: string): void;
  /** Opens the URL in a browser (or only prints it). */
  openBrowser(url: string): void | Promise<void>;
  /**
   * The provider's redirect reaches someone else (the daemon's GET /connect/callback, for
   * a connect started from the dashboard): never listen on a loopback port, even for a
   * loopback redirect URI; `prompt` answers the paste question with the address the
   * browser was sent to.
   */
  readonly receivesRedirect?: boolean;
}
