/** Message times with `Intl`, in the widget's language. */

/** Messages closer than this share one time label. */
export const RUN_MS = 5 * 60_000;

/**
 * The time of an ISO date, e.g. `14:05`, with its day when not today (`23 Nov 2026, 14:05`), or with
 * `full` its whole date, e.g. `Monday, 23 November 2026 at 14:05`.
 */
export const formatTime = (iso: string, locale: string, full?: boolean) => {
  const at = new Date(iso);
  return at.toLocaleString(locale, full ? { dateStyle: 'full', timeStyle: 'short' } : at.toDateString() === new Date().toDateString() ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' });
};

/** True when `iso` starts a new run: no time before it, or more than `RUN_MS` after `before`. */
export const startsRun = (iso: string, before?: string) => !before || Date.parse(iso) - Date.parse(before) > RUN_MS;
