import { useEffect, useState } from 'preact/hooks';

/** How long an Approve or Reject waits before it is sent, so that it can be undone. */
export const UNDO_SECONDS = 5;

export interface HeldAction {
  key: string;
  /** What waits, in words: "Approving “Spring sale”". */
  label: string;
  /** The posts it decides (hidden from the list while it waits). */
  jobIds: readonly string[];
}

interface Entry extends HeldAction {
  /** Sends it; `leaving`: the page is going away (the request must outlive it). */
  send(leaving: boolean): Promise<void>;
  timer: ReturnType<typeof setTimeout>;
}

const held = new Map<string, Entry>();
const listeners = new Set<() => void>();
const changed = () => {
  for (const l of listeners) l();
};

/**
 * Holds a decision for UNDO_SECONDS before sending it (issue 38: Approve and Reject can be
 * undone for a few seconds; the action waits). Nothing reaches the daemon until then, so
 * Undo leaves everything as it was; a page closed while one waits sends it at once.
 */
export function hold(action: HeldAction, send: (leaving: boolean) => Promise<void>, ms = UNDO_SECONDS * 1000): void {
  const timer = setTimeout(() => {
    held.delete(action.key);
    changed();
    void send(false);
  }, ms);
  held.set(action.key, { ...action, send, timer });
  changed();
}

/** Cancels a held decision; false when it was already sent. */
export function undo(key: string): boolean {
  const e = held.get(key);
  if (!e) return false;
  clearTimeout(e.timer);
  held.delete(key);
  changed();
  return true;
}

/** The decisions waiting now, kept current. */
export function useHeldActions(): HeldAction[] {
  const [list, setList] = useState<HeldAction[]>(() => [...held.values()]);
  useEffect(() => {
    const l = () => setList([...held.values()]);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return list;
}

// Leaving the page does not cancel what was decided: what waits is sent, with keepalive.
if (typeof addEventListener === 'function') {
  addEventListener('pagehide', () => {
    for (const e of [...held.values()]) {
      clearTimeout(e.timer);
      held.delete(e.key);
      void e.send(true);
    }
  });
}
