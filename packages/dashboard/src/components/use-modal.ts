import { useEffect, useRef } from 'preact/hooks';

/**
 * Ties a `<dialog>` to a boolean: shown modal (the rest of the page inert, Escape closes)
 * while `open`, closed otherwise; closing it by Escape reports back through `onClosed`.
 */
export function useModal(open: boolean, onClosed: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    d.addEventListener('close', onClosed);
    return () => d.removeEventListener('close', onClosed);
  });
  return ref;
}
