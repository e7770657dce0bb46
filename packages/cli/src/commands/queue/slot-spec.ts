import { WEEKDAYS, type Platform, type Weekday } from '@socialpub/core';
import { UsageError } from '../../errors';
import { parsePlatform } from '../../platform-name';

export interface SlotSpec {
  day: Weekday;
  time: string;
  platforms?: Platform[];
}

/**
 * `DAYS@TIMES[/PLATFORMS]` to weekly slots: `mon-fri@09:00,13:00`, `sat,sun@10:00/twitter,threads`.
 * Days are mon..sun, lists and ranges (a range may wrap: fri-mon); times HH:MM (9:00 is 09:00).
 */
export function parseSlotSpec(spec: string): SlotSpec[] {
  const m = /^([a-z,\- ]+)@([0-9:, ]+)(?:\/([a-z0-9, ]+))?$/i.exec(spec.trim());
  if (!m) throw new UsageError(`slot "${spec}" must look like mon-fri@09:00,13:00 or sat@10:00/twitter`);
  const days = new Set<Weekday>();
  for (const part of (m[1] as string).toLowerCase().split(',').map((d) => d.trim()).filter(Boolean)) {
    const [from, to] = part.split('-').map((d) => WEEKDAYS.indexOf(d.slice(0, 3) as Weekday));
    if (from === undefined || from < 0 || (to !== undefined && to < 0)) throw new UsageError(`slot "${spec}": "${part}" is not a day (mon..sun) or a range (mon-fri)`);
    for (let i = from; ; i = (i + 1) % 7) {
      days.add(WEEKDAYS[i] as Weekday);
      if (to === undefined || i === to) break;
    }
  }
  const times = (m[2] as string).split(',').map((t) => t.trim()).filter(Boolean).map((t) => {
    const hm = /^(\d{1,2}):(\d{2})$/.exec(t);
    if (!hm || Number(hm[1]) > 23 || Number(hm[2]) > 59) throw new UsageError(`slot "${spec}": "${t}" is not a time (HH:MM)`);
    return `${hm[1]?.padStart(2, '0')}:${hm[2]}`;
  });
  const platforms = m[3] ? m[3].split(',').map((p) => p.trim()).filter(Boolean).map((p) => parsePlatform(p, 'slot platforms')) : undefined;
  return [...days].flatMap((day) => times.map((time) => ({ day, time, ...(platforms ? { platforms } : {}) })));
}
