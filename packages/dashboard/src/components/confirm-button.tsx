import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { message } from '../lib/api';
import { useModal } from './use-modal';

export interface ConfirmButtonProps {
  /** The button's text (its accessible name): "Take down", "Revoke 3f9a…". */
  label: ComponentChildren;
  /** The dialog's heading, its accessible name: "Take down this post?". */
  title: string;
  /**
   * What will happen, in words. A function may fetch first (how many posts a connection
   * carries): the dialog opens once it has answered.
   */
  describe: ComponentChildren | (() => Promise<ComponentChildren>);
  /** The button that acts: "Take down", "Remove the connection". */
  confirmLabel: string;
  /** The button that leaves everything as it was (also Escape): "Keep the post up". */
  keepLabel?: string;
  /** Fields the dialog asks for beyond yes or no (a review link's comment). */
  children?: ComponentChildren;
  onConfirm(): Promise<void> | void;
  class?: string;
  disabled?: boolean;
}

/**
 * A button for an action that cannot be taken back: it asks first, in a modal
 * `<dialog role="alertdialog">` named by its heading (no `window.confirm`, which a page cannot
 * word or style and a screen reader announces poorly). The safe choice has the focus;
 * Escape or the keep button closes it and nothing is sent.
 */
export function ConfirmButton(props: ConfirmButtonProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const dialog = useModal(open, () => setOpen(false));
  const [body, setBody] = useState<ComponentChildren>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');


  const ask = async () => {
    setError('');
    try {
      setBody(typeof props.describe === 'function' ? await props.describe() : props.describe);
    } catch (e) {
      setBody(null);
      setError(message(e));
    }
    setOpen(true);
  };
  const confirm = async () => {
    setBusy(true);
    setError('');
    try {
      await props.onConfirm();
      setOpen(false);
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" class={props.class} disabled={props.disabled} aria-haspopup="dialog" onClick={() => void ask()}>
        {props.label}
      </button>
      <dialog ref={dialog} class="confirm" role="alertdialog" aria-modal="true" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`}>
        {open && (
          <>
            <h2 id={`${id}-t`}>{props.title}</h2>
            <div id={`${id}-d`} class="confirm-body">
              {body}
            </div>
            {props.children}
            {error && (
              <p class="notice notice-error" role="alert">
                {error}
              </p>
            )}
            <div class="actions">
              <button type="button" autoFocus onClick={() => setOpen(false)}>
                {props.keepLabel ?? 'Cancel'}
              </button>
              <button type="button" class="danger" disabled={busy} onClick={() => void confirm()}>
                {props.confirmLabel}
              </button>
            </div>
          </>
        )}
      </dialog>
    </>
  );
}
