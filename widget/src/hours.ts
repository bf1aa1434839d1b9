/**
 * When the team is back, in the visitor's own time zone and language (`Intl`, never hand-made):
 * "Monday 09:00" in en-GB, "Monday 9:00 AM" in en-US, "Montag, 09:00", "lundi 09:00"; later today
 * the time alone (today's weekday would read as next week's). More than six days ahead it names
 * the date too.
 */
export function formatOpening(iso: string, locale: string, now = new Date()): string {
  const at = new Date(iso);
  const later = at.toDateString() !== now.toDateString(); // a later day, in this browser's time zone
  const far = +at - +now > 6 * 86_400_000;
  return new Intl.DateTimeFormat(locale, { weekday: later ? 'long' : undefined, ...(far && { day: 'numeric', month: 'long' }), hour: 'numeric', minute: '2-digit' }).format(at);
}

/** The string key of `SUPPORT_REPLY_TIME` (`minutes`, `hour`, `day`). */
export const replyKey = (replyTime: string) => (replyTime === 'day' ? 'replyDay' : replyTime === 'hour' ? 'replyHour' : 'replyMinutes');
