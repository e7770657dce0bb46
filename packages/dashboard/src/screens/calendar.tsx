import { Calendar, type EventDropArg } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import listPlugin from '@fullcalendar/list';
import luxonPlugin from '@fullcalendar/luxon3';
import timeGridPlugin from '@fullcalendar/timegrid';
import { PLATFORMS } from '@socialpub/core/platforms';
import { DateTime } from 'luxon';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { FeedbackLine, type Feedback } from '../components/notice';
import { SelectedPost } from './selected-post';
import { StatusLegend } from './status-legend';
import { allPages, get, message, patch } from '../lib/api';
import { useLiveVersion } from '../lib/live';
import { platformName } from '../lib/names';
import { useApp } from '../lib/session';
import type { Post, QueueNextResponse, SeriesListResponse, UpdateResponse } from '../lib/types';
import { condenseDays, inRange, movedWall, postEvents, seriesEvents, slotEvents } from './calendar-events';
import { dayInZone } from '../lib/time';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const STATUSES = ['all', 'pending_approval', 'scheduled', 'publishing', 'published', 'failed', 'cancelled', 'needs_review', 'removed'];

/**
 * Calendar: month, week and list in the person's zone (FullCalendar with its luxon plugin
 * for named zones, so DST is the zone's own). Dragging a post is `PATCH
 * /content/scheduled` with the new base wall time; a refusal reverts it and says why.
 */
export default function CalendarScreen() {
  const { zone } = useApp();
  const live = useLiveVersion();
  const el = useRef<HTMLDivElement>(null);
  const cal = useRef<Calendar | null>(null);
  const [posts, setPosts] = useState<Post[] | null>(null);
  const [slots, setSlots] = useState<QueueNextResponse | null>(null);
  const [series, setSeries] = useState<SeriesListResponse | null>(null);
  const [platforms, setPlatforms] = useState<Set<string>>(new Set());
  const [status, setStatus] = useState('all');
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [open, setOpen] = useState<Post | null>(null);
  const postsRef = useRef<Post[]>([]);
  const [range, setRange] = useState<{ start: Date; end: Date; type: string } | null>(null);
  const [ready, setReady] = useState(0);

  const load = async () => {
    try {
      const [list, next, ser] = await Promise.all([
        allPages<Post>('/content/scheduled', { limit: 200 }, 'posts'),
        get<QueueNextResponse>('/queue/next?count=100').catch(() => null),
        get<SeriesListResponse>('/content/series').catch(() => null),
      ]);
      postsRef.current = list;
      setPosts(list);
      setSlots(next);
      setSeries(ser);
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };
  useEffect(() => {
    void load();
  }, [live]);

  const onDrop = async (info: EventDropArg) => {
    const { jobId, base } = info.event.extendedProps as { jobId: string; base: string };
    const wall = DateTime.fromISO(base, { zone });
    const to = movedWall({ year: wall.year, month: wall.month, day: wall.day, hour: wall.hour, minute: wall.minute, second: wall.second }, info.delta);
    try {
      const res = await patch<UpdateResponse>(`/content/scheduled?job_id=${encodeURIComponent(jobId)}`, { scheduled_for: to, timezone: zone });
      setFeedback({ kind: 'ok', text: `${res.message} (${to.replace('T', ' ')} ${zone})` });
      await load();
    } catch (e) {
      info.revert();
      setFeedback({ kind: 'error', text: `Not moved: ${message(e)}` });
    }
  };
  const dropRef = useRef(onDrop);
  dropRef.current = onDrop;

  useEffect(() => {
    if (!el.current) return;
    const c = new Calendar(el.current, {
      plugins: [dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin, luxonPlugin],
      timeZone: zone,
      initialView: 'dayGridMonth',
      // A link may open a given month: /calendar?date=2027-03-01.
      ...(DATE.test(new URLSearchParams(location.search).get('date') ?? '') ? { initialDate: new URLSearchParams(location.search).get('date')! } : {}),
      headerToolbar: { left: 'prev,next today', center: 'title', right: 'dayGridMonth,timeGridWeek,listMonth' },
      // Text buttons: FullCalendar's icon buttons are role=img spans without a name.
      buttonIcons: false,
      buttonText: { prev: 'Previous', next: 'Next', today: 'Today', month: 'Month', week: 'Week', list: 'List' },
      buttonHints: { prev: 'Previous $0', next: 'Next $0', today: 'This $0' },
      firstDay: 1,
      height: 'auto',
      // Days are condensed before FullCalendar sees them (condenseDays): no measuring pass to hide entries.
      dayMaxEvents: false,
      // "+N more" (order 1) after the entries it counts (order 0), though it is an all-day entry.
      eventOrder: 'order,start,-duration,allDay,title',
      // Coloured blocks whose text wraps at every width (FullCalendar's default draws a timed entry as a dot and cuts its text).
      eventDisplay: 'block',
      eventInteractive: true,
      editable: true,
      eventStartEditable: true,
      eventDurationEditable: false,
      eventTimeFormat: { hour: '2-digit', minute: '2-digit', hour12: false },
      eventDrop: (info) => void dropRef.current(info),
      // A month cell is named by its events and day number as they read; FullCalendar's
      // aria-labelledby names it by the date link alone, which hides what the cell holds.
      dayCellDidMount: (arg) => arg.el.removeAttribute('aria-labelledby'),
      // Only a real change of dates or view (FullCalendar also calls this after re-rendering events).
      datesSet: (arg) =>
        setRange((r) => (r && r.start.getTime() === arg.start.getTime() && r.end.getTime() === arg.end.getTime() && r.type === arg.view.type ? r : { start: arg.start, end: arg.end, type: arg.view.type })),
      eventClick: (info) => {
        const day = (info.event.extendedProps as { day?: string }).day;
        if (day) {
          info.jsEvent.preventDefault();
          c.changeView('listDay', day);
          return;
        }
        const id = (info.event.extendedProps as { jobId?: string }).jobId;
        const p = id ? postsRef.current.find((x) => x.job_id === id) : undefined;
        if (p) {
          info.jsEvent.preventDefault();
          setOpen(p);
        }
      },
    });
    // FullCalendar renders its own Preact tree synchronously (flushSync): doing that inside
    // Preact's effect flush ran this component's effects a second time (two loads, two
    // renders). From a microtask, after the flush, it renders once.
    let alive = true;
    queueMicrotask(() => {
      if (!alive) return;
      c.render();
      cal.current = c;
      setReady((n) => n + 1);
    });
    return () => {
      alive = false;
      if (cal.current === c) c.destroy();
      cal.current = null;
    };
  }, [zone]);

  // Entries are computed when the data or the filters change, not when the view moves.
  const all = useMemo(() => (posts ? [...postEvents(posts, { platforms, status }), ...slotEvents(slots), ...seriesEvents(series)] : null), [posts, slots, series, platforms, status]);
  const dayOf = useMemo(() => dayInZone(zone), [zone]);

  useEffect(() => {
    const c = cal.current;
    if (!c || !all || !range) return;
    performance.mark('sp-calendar-start');
    const shown = inRange(all, range.start, range.end);
    const events = range.type === 'dayGridMonth' ? condenseDays(shown, dayOf) : shown;
    queueMicrotask(() => {
      if (cal.current !== c) return;
      c.batchRendering(() => {
        c.removeAllEventSources();
        c.addEventSource(events);
      });
    });
    requestAnimationFrame(() =>
      setTimeout(() => {
        performance.mark('sp-calendar-end');
        performance.measure('sp-calendar-render', 'sp-calendar-start', 'sp-calendar-end');
        if (el.current) el.current.dataset.rendered = String(events.length);
      }, 0),
    );
  }, [all, range, ready]);

  return (
    <section aria-labelledby="cal-h">
      <h1 id="cal-h">Calendar</h1>
      <p class="muted">Times in {zone}. Drag a post to move it; a refused move says why.</p>
      <fieldset class="filters">
        <legend>Filter</legend>
        {PLATFORMS.map((p) => (
          <label key={p}>
            <input
              type="checkbox"
              checked={platforms.has(p)}
              onChange={(e) => {
                const n = new Set(platforms);
                if (e.currentTarget.checked) n.add(p);
                else n.delete(p);
                setPlatforms(n);
              }}
            />{' '}
            {platformName(p)}
          </label>
        ))}
        <label>
          Status{' '}
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <StatusLegend />
      <FeedbackLine value={feedback} />
      <div ref={el} class="calendar" />
      {open && (
        <SelectedPost
          post={open}
          zone={zone}
          onClose={() => setOpen(null)}
          onDone={async (text) => {
            setFeedback({ kind: 'ok', text });
            setOpen(null);
            await load();
          }}
          onError={(text) => setFeedback({ kind: 'error', text })}
        />
      )}
    </section>
  );
}
