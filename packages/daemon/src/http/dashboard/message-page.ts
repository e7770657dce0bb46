/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * A small page of the daemon's own (a used sign-in link, an unknown review link, a missing
 * dashboard build): no script, no style, no data beyond the words given. `form` adds one
 * button posting to a same-origin path.
 */
export function messagePage(title: string, lines: string[], form?: { action: string; label: string }): string {
  const body = lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n');
  const button = form ? `\n<form method="post" action="${escapeHtml(form.action)}"><button type="submit">${escapeHtml(form.label)}</button></form>` : '';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>${escapeHtml(title)} · socialpub</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}${button}
</main>
</body>
</html>
`;
}
