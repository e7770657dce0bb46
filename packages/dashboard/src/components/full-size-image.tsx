import { useId, useState } from 'preact/hooks';
import { useModal } from './use-modal';

/**
 * An image preview that opens at full size: the cropped thumbnail is a button; pressing it
 * shows the whole image at its own size in a modal dialog (scrolling when it is larger than
 * the window). Escape or Close puts the focus back on the thumbnail.
 */
export function FullSizeImage({ url, name }: { url: string; name: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const dialog = useModal(open, () => setOpen(false));
  return (
    <>
      <button type="button" class="media-open" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <img src={url} alt={`image ${name}`} loading="lazy" />
        <span class="sr-only">, open at full size</span>
      </button>
      <dialog ref={dialog} class="full-size" aria-labelledby={`${id}-t`}>
        {open && (
          <>
            <p class="full-size-head">
              <span id={`${id}-t`} class="caption-text">
                {name} at full size
              </span>{' '}
              <button type="button" autoFocus onClick={() => setOpen(false)}>
                Close
              </button>
            </p>
            <div class="full-size-frame">
              <img src={url} alt={`image ${name}, full size`} />
            </div>
          </>
        )}
      </dialog>
    </>
  );
}
