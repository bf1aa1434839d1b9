import { describe, expect, it } from 'vitest';
import { closedLauncherNote, handoffNow } from './handoff.js';
import { parseSupportHours } from './support-hours.js';

const hours = parseSupportHours('Mon-Fri 09:00-17:00', 'Europe/Berlin');

describe('CLOSED_LAUNCHER at start', () => {
  it('says nothing for show', () => {
    expect(closedLauncherNote({ closedLauncher: 'show', supportHours: hours })).toBeUndefined();
  });

  it('names what hide needs: the page tag asking for it', () => {
    const note = closedLauncherNote({ closedLauncher: 'hide', supportHours: hours })!;
    expect(note).toContain('data-launcher="hours"');
    expect(note).toContain("init({launcher: \"hours\"})");
    expect(note).not.toContain('\n');
  });

  it('says that hide without support hours does nothing', () => {
    expect(closedLauncherNote({ closedLauncher: 'hide', supportHours: undefined })).toMatch(/^CLOSED_LAUNCHER=hide does nothing without SUPPORT_HOURS/);
  });
});

describe('handoffNow', () => {
  it('passes the launcher setting on with the hours', () => {
    const settings = { supportHours: hours, supportReplyTime: 'minutes', escalationOffer: 'always' as const, closedLauncher: 'hide' as const };
    // Saturday: away until Monday 09:00 Berlin.
    expect(handoffNow(settings, Date.parse('2026-11-28T12:00:00Z'))).toEqual({ offer: 'always', open: false, opensAt: '2026-11-30T08:00:00.000Z', replyTime: 'minutes', launcher: 'hide' });
  });
});
