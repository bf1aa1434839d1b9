/**
 * Support hours (`SUPPORT_HOURS` in `SUPPORT_TIMEZONE`): whether a person can answer now, and when
 * the team is back. Luxon does the zone and daylight-saving arithmetic: a wall-clock time such as
 * "Monday 09:00 in Europe/Berlin" becomes an instant through the zone's own rules, never a fixed offset.
 */
import { DateTime, IANAZone } from 'luxon';

/** One opening window on one weekday (1 = Monday … 7 = Sunday), minutes from local midnight. */
interface Window {
  weekday: number;
  from: number;
  to: number;
}

export interface SupportHours {
  zone: string;
  windows: readonly Window[];
}

export interface Availability {
  open: boolean;
  /** ISO 8601 instant of the next opening, when closed. */
  opensAt?: string;
}

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/**
 * `Mon-Fri 09:00-17:30; Sat 10:00-14:00` → windows; throws an Error naming what it could not read.
 * Days are English three-letter names, a single day or a range; times are 24-hour `HH:MM`.
 */
export function parseSupportHours(text: string, zone: string): SupportHours {
  if (!IANAZone.isValidZone(zone)) throw new Error(`unknown time zone "${zone}"`);
  const windows: Window[] = [];
  for (const part of text.split(';').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]{3})(?:\s*-\s*([A-Za-z]{3}))?\s+(\d{2}):(\d{2})\s*-\s*(\d{2}):(\d{2})$/.exec(part);
    if (!m) throw new Error(`cannot read "${part}" (expected like "Mon-Fri 09:00-17:30")`);
    const first = DAYS.indexOf(m[1]!.toLowerCase());
    const last = m[2] === undefined ? first : DAYS.indexOf(m[2].toLowerCase());
    const from = minutes(m[3]!, m[4]!);
    const to = minutes(m[5]!, m[6]!);
    if (first < 0 || last < 0 || first > last) throw new Error(`cannot read the days of "${part}"`);
    if (from === undefined || to === undefined || from >= to) throw new Error(`cannot read the times of "${part}"`);
    for (let d = first; d <= last; d++) windows.push({ weekday: d + 1, from, to });
  }
  if (windows.length === 0) throw new Error('no opening hours given');
  return { zone, windows };
}

/** Open now, or closed and when the next window opens (looking up to two weeks ahead). */
export function availability(hours: SupportHours, nowMs: number): Availability {
  const now = DateTime.fromMillis(nowMs, { zone: hours.zone });
  let next: DateTime | undefined;
  for (let offset = 0; offset <= 14 && next === undefined; offset++) {
    const day = now.startOf('day').plus({ days: offset });
    const todays = hours.windows.filter((w) => w.weekday === day.weekday).sort((a, b) => a.from - b.from);
    for (const w of todays) {
      // Wall-clock times through the zone: on a DST change day 09:00 is still 09:00 local.
      const start = day.set({ hour: Math.floor(w.from / 60), minute: w.from % 60 });
      const end = day.set({ hour: Math.floor(w.to / 60), minute: w.to % 60 });
      if (now >= start && now < end) return { open: true };
      if (start > now) {
        next = start;
        break;
      }
    }
  }
  return next === undefined ? { open: false } : { open: false, opensAt: next.toUTC().toISO()! };
}

function minutes(h: string, m: string): number | undefined {
  const hours = Number(h);
  const mins = Number(m);
  if (hours > 24 || mins > 59 || (hours === 24 && mins !== 0)) return undefined;
  return hours * 60 + mins;
}
