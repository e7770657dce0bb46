import { useEffect, useState } from 'preact/hooks';
import { API } from './api';
import { EVENT_TYPES } from './types';

/**
 * Live updates: one EventSource on GET /events (the session cookie authenticates it; the
 * browser reconnects and resumes with Last-Event-ID by itself). Screens subscribe and
 * reload what they show when an event arrives, a burst folded into one reload.
 */
type Listener = (type: string) => void;
const listeners = new Set<Listener>();
let source: EventSource | null = null;
let lastEvent = '';

export function startLive(): void {
  if (source || typeof EventSource === 'undefined') return;
  source = new EventSource(`${API}/events`, { withCredentials: true });
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, () => {
      lastEvent = type;
      for (const l of listeners) l(type);
    });
  }
}

export function stopLive(): void {
  source?.close();
  source = null;
}

/** A number that grows after each burst of events (120 ms apart); use it as an effect dependency. */
export function useLiveVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const l: Listener = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setVersion((v) => v + 1), 120);
    };
    listeners.add(l);
    return () => {
      clearTimeout(timer);
      listeners.delete(l);
    };
  }, []);
  return version;
}

export function lastEventType(): string {
  return lastEvent;
}
