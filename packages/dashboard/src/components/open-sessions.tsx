import { useEffect, useState } from 'preact/hooks';
import { FeedbackLine, type Feedback } from './notice';
import { ApiError, del, get, message } from '../lib/api';
import { formatInZone } from '../lib/time';
import type { OpenSession } from '../lib/types';
import { TableWrap } from './table-wrap';

/**
 * The user's open dashboard sessions (GET /auth/sessions), each with how it was opened and
 * an End button. A session opened with a key also ends when that key is revoked or
 * regenerated; `reload` changes after such an action so the list follows. Ending this
 * browser's own session signs it out.
 */
export function OpenSessions({ zone, reload }: { zone: string; reload: number }) {
  const [sessions, setSessions] = useState<OpenSession[]>([]);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const load = () =>
    get<{ data: OpenSession[] }>('/auth/sessions')
      .then((r) => setSessions(r.data))
      .catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 401) location.assign('/signin');
        else setFeedback({ kind: 'error', text: message(e) });
      });
  useEffect(() => {
    void load();
  }, [reload]);
  const opened = (s: OpenSession) => (s.signed_in_with === 'key' ? `with key ${s.key_prefix ?? '(deleted)'}` : 'with a sign-in link');
  const end = async (s: OpenSession) => {
    try {
      await del(`/auth/sessions/${encodeURIComponent(s.id)}`);
      if (s.current) {
        location.assign('/signin');
        return;
      }
      setFeedback({ kind: 'ok', text: `Ended the session opened ${formatInZone(s.created_at, zone)}` });
      await load();
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };
  return (
    <>
      <h2>Open sessions</h2>
      <p class="muted">Browsers signed in to this dashboard. A session opened with a key ends when that key is revoked or regenerated.</p>
      <FeedbackLine value={feedback} />
      <TableWrap label="Open sessions">
        <table aria-label="Open sessions">
          <thead>
            <tr>
              <th scope="col">Signed in</th>
              <th scope="col">How</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id}>
                <td>
                  {formatInZone(s.created_at, zone)}
                  {s.current ? ' (this browser)' : ''}
                </td>
                <td>{opened(s)}</td>
                <td>{formatInZone(s.last_seen_at, zone)}</td>
                <td>
                  <button type="button" class="danger" onClick={() => void end(s)}>
                    {s.current ? 'Sign out this browser' : `End session ${opened(s)}, signed in ${formatInZone(s.created_at, zone)}`}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}
