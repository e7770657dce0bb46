/** All terminal I/O goes through these, so the CLI keeps prompts and output. */
export interface ConnectIO {
  prompt(question: string, opts?: { secret?: boolean }): Promise<string>;
  choose<T>(question: string, choices: { label: string; value: T }[]): Promise<T>;
  print(line: string): void;
  /** Opens the URL in a browser (or only prints it). */
  openBrowser(url: string): void | Promise<void>;
}
