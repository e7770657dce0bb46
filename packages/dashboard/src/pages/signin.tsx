import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Notice } from '../components/notice';
import { call, message } from '../lib/api';
import '../styles.css';

/** Sign-in with an API key: the key goes once to POST /auth/session, which sets the session cookie. */
function SignIn() {
  const [key, setKey] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // Already signed in (a link from another site arrives without the SameSite=Strict cookie
  // and lands here; this same-origin request carries it): go to the app.
  useEffect(() => {
    fetch('/auth/session', { credentials: 'same-origin' })
      .then((r) => {
        if (r.ok) location.replace('/');
      })
      .catch(() => undefined);
  }, []);
  return (
    <main id="main" class="narrow">
      <h1>Sign in to socialpub</h1>
      <p>
        Open the link <code>socialpub dashboard</code> prints or opens, or sign in with an API key.
      </p>
      <form onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError('');
        try {
          await call('POST', '/auth/session', { api_key: key.trim() }, { public: false });
          setKey('');
          location.assign('/');
        } catch (err) {
          setError(message(err));
        } finally {
          setBusy(false);
        }
      }}>
        <label class="column">
          API key
          <input type="password" autoComplete="off" required value={key} onInput={(e) => setKey(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
    </main>
  );
}

render(<SignIn />, document.getElementById('app')!);
