/**
 * The few terminal styles the CLI uses, as chalk writes them at its basic level (16
 * colours): same codes, nested styles re-opened after an inner one closes, and each line
 * of a multi-line text wrapped on its own. A dozen lines instead of chalk and
 * supports-color on every start (docs/architecture.md, "Start-up"); whether colour is on
 * is the Logger's decision.
 */
export type Style = (text: string) => string;

export interface Styles {
  /** Whether these styles write escape codes at all. */
  readonly enabled: boolean;
  bold: Style;
  dim: Style;
  green: Style;
  red: Style;
  yellow: Style;
  cyan: Style;
}

const CODES = { bold: [1, 22], dim: [2, 22], green: [32, 39], red: [31, 39], yellow: [33, 39], cyan: [36, 39] } as const;

function style(openCode: number, closeCode: number): Style {
  const open = `\u001b[${openCode}m`;
  const close = `\u001b[${closeCode}m`;
  return (text) => {
    if (!text) return text;
    // An inner style that closes with the same code would end ours too: open ours again after it.
    let body = text.includes('\u001b') ? text.split(close).join(close + open) : text;
    // Each line carries its own codes, so a terminal (or a pager) that cuts lines keeps them.
    if (body.includes('\n')) body = body.replace(/\r?\n/g, (eol) => close + eol + open);
    return open + body + close;
  };
}

const plain: Style = (text) => text;

export function ansiStyles(enabled: boolean): Styles {
  const make = (name: keyof typeof CODES) => (enabled ? style(CODES[name][0], CODES[name][1]) : plain);
  return { enabled, bold: make('bold'), dim: make('dim'), green: make('green'), red: make('red'), yellow: make('yellow'), cyan: make('cyan') };
}
