import { useEffect, useState } from 'preact/hooks';
import { API } from './api';
import { EVENT_TYPES } from './types';

/**
 * Live updates: one EventSource on GET /events (the session cookie authenticates it; the
 * browser reconnects and resumes with Last-Event-ID by itself). Screens subscribe and
 * reload what they show when an event arrives, a burst folded into one reload.
 */
type Listener = (type: string, data: Record<string, unknown>) => void;
const listeners = new Set<Listener>();
let source: EventSource | null = null;
let lastEvent = '';

/** An event's `data` (the API's event envelope), or {} when it cannot be read. */
function dataOf(message: MessageEvent): Record<string, unknown> {
  try {
    const data = (JSON.parse(String(message.data)) as { data?: unknown }).data;
    return data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function startLive(): void {
  if (source || typeof EventSource === 'undefined') return;
  source = new EventSource(`${API}/events`, { withCredentials: true });
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (message) => {
      lastEvent = type;
      const data = dataOf(message);
      for (const l of listeners) l(type, data);
    });
  }
}

/**
 * A media task's status once it is no longer processing: read once now (it may have ended
 * already), then once more when the stream says it ended (media.task_completed or
 * media.task_failed) — two requests however long it takes, where a poll every second spent
 * one a second (issue 35).
 */
export async function untilMediaTaskEnds<T extends { status: string }>(taskId: string, read: () => Promise<T>): Promise<T> {
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  const listener: Listener = (type, data) => {
    if ((type === 'media.task_completed' || type === 'media.task_failed') && data.task_id === taskId) ended();
  };
  // Listening before the read: an end between the two is not missed.
  listeners.add(listener);
  try {
    const first = await read();
    if (first.status !== 'processing') return first;
    await end;
    return await read();
  } finally {
    listeners.delete(listener);
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
