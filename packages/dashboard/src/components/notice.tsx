import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** A status line: polite for results, assertive (role=alert) for errors. */
export function Notice({ kind, children }: { kind: 'ok' | 'error' | 'info'; children: ComponentChildren }) {
  return (
    <p class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

export type Feedback = { kind: 'ok' | 'error' | 'info'; text: string } | null;

export function FeedbackLine({ value }: { value: Feedback }) {
  return value ? <Notice kind={value.kind}>{value.text}</Notice> : null;
}

/** Copies a text with the Clipboard API; says so in a live region. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState<string>('');
  return (
    <>
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setDone('Copied');
          } catch {
            setDone('Copy failed: select the text and copy it');
          }
        }}
      >
        {label}
      </button>
      <span class="sr-live" role="status">
        {done}
      </span>
    </>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${status}`}>{status.replace(/_/g, ' ')}</span>;
}
