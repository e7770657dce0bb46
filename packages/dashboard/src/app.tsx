import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Notice } from './components/notice';
import { ApiError, allPages, get, message, post, setCsrfToken } from './lib/api';
import { startLive, useLiveVersion } from './lib/live';
import { Ctx, type AppContext } from './lib/session';
import { browserZone } from './lib/time';
import type { Platform, PlatformsResponse, Post, SessionInfo, SettingsResponse } from './lib/types';
import { AnalyticsScreen } from './screens/analytics';
import { ComposeScreen } from './screens/compose';
import { ConnectionsScreen } from './screens/connections';
import { InboxScreen } from './screens/inbox';
import { PostsScreen } from './screens/posts';
import { ReviewScreen } from './screens/review';
import { SettingsScreen } from './screens/settings';

const SCREENS = [
  ['/review', 'Review'],
  ['/calendar', 'Calendar'],
  ['/compose', 'Compose'],
  ['/posts', 'Posts'],
  ['/inbox', 'Inbox'],
  ['/analytics', 'Analytics'],
  ['/connections', 'Connections'],
  ['/settings', 'Settings'],
] as const;

/** The calendar (FullCalendar) is its own chunk, loaded when first shown: the first load stays small. */
let calendarModule: Promise<{ default: ComponentType }> | null = null;
function LazyCalendar() {
  const [C, setC] = useState<ComponentType | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    calendarModule ??= import('./screens/calendar');
    calendarModule.then((m) => setC(() => m.default)).catch((e: unknown) => setError(message(e)));
  }, []);
  if (error) return <Notice kind="error">{error}</Notice>;
  return C ? <C /> : <p>Loading the calendar…</p>;
}

function screenFor(path: string) {
  switch (path) {
    case '/calendar':
      return <LazyCalendar />;
    case '/compose':
      return <ComposeScreen />;
    case '/posts':
      return <PostsScreen />;
    case '/inbox':
      return <InboxScreen />;
    case '/analytics':
      return <AnalyticsScreen />;
    case '/connections':
      return <ConnectionsScreen />;
    case '/settings':
      return <SettingsScreen />;
    default:
      return <ReviewScreen />;
  }
}

async function loadContext(): Promise<Omit<AppContext, 'navigate' | 'reloadContext'>> {
  const [session, settings, platforms] = await Promise.all([get<SessionInfo>('/auth/session'), get<SettingsResponse>('/settings'), get<PlatformsResponse>('/platforms')]);
  setCsrfToken(session.csrf_token);
  const connected = platforms.platforms.filter((p) => p.connection?.status === 'active').map((p) => p.platform as Platform);
  return {
    email: session.user.email,
    zone: settings.settings.timezone ?? browserZone(),
    savedZone: settings.settings.timezone,
    approvalWorkflow: settings.settings.approval_workflow,
    platforms: platforms.platforms,
    connected,
  };
}

export function App() {
  const [path, setPath] = useState(location.pathname);
  const [ctx, setCtx] = useState<Omit<AppContext, 'navigate' | 'reloadContext'> | null>(null);
  const [error, setError] = useState('');
  const [waiting, setWaiting] = useState<number | null>(null);
  const live = useLiveVersion();

  const navigate = (to: string) => {
    if (to !== location.pathname + location.search) history.pushState(null, '', to);
    setPath(new URL(to, location.href).pathname);
    document.getElementById('main')?.focus();
  };
  const reloadContext = async () => setCtx(await loadContext());

  useEffect(() => {
    loadContext()
      .then(async (c) => {
        setCtx(c);
        startLive();
        // Landing: Review when posts wait, else the calendar.
        if (location.pathname === '/') {
          const pending = await allPages<Post>('/content/scheduled', { status: 'pending_approval', limit: 1 }, 'posts', 1);
          const to = pending.length ? '/review' : '/calendar';
          history.replaceState(null, '', to);
          setPath(to);
        }
      })
      .catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 401) location.assign('/signin');
        else setError(message(e));
      });
    const onPop = () => setPath(location.pathname);
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  useEffect(() => {
    if (!ctx) return;
    allPages<Post>('/content/scheduled', { status: 'pending_approval', limit: 200 }, 'posts')
      .then((p) => setWaiting(p.length))
      .catch(() => setWaiting(null));
  }, [ctx, live]);

  // The first screen is on the page and its controls work: what bench/dashboard times.
  useEffect(() => {
    if (ctx && !performance.getEntriesByName('sp-interactive').length) performance.mark('sp-interactive');
  }, [ctx]);

  useEffect(() => {
    const name = SCREENS.find(([p]) => p === path)?.[1] ?? 'Review';
    document.title = `${name} · socialpub`;
  }, [path]);

  if (error) return <Notice kind="error">The dashboard could not start: {error}</Notice>;
  if (!ctx) return <p class="loading">Loading…</p>;
  const current = path === '/' ? '/review' : path;
  return (
    <Ctx.Provider value={{ ...ctx, navigate, reloadContext }}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">socialpub</span>
        <nav aria-label="Main">
          <ul>
            {SCREENS.map(([p, name]) => (
              <li key={p}>
                <a href={p} aria-current={current === p ? 'page' : undefined} onClick={(e) => {
                  if (e.ctrlKey || e.metaKey || e.shiftKey) return;
                  e.preventDefault();
                  navigate(p);
                }}>
                  {name}
                  {p === '/review' && waiting ? <span class="count"> ({waiting})</span> : null}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          <span class="muted">{ctx.email}</span>{' '}
          <button type="button" onClick={async () => {
            try {
              await post('/auth/signout');
            } finally {
              location.assign('/signin');
            }
          }}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        {screenFor(current)}
      </main>
    </Ctx.Provider>
  );
}
