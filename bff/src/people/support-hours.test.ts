import { describe, expect, it } from 'vitest';
import { availability, parseSupportHours } from './support-hours.js';
import { loadConfig } from '../config.js';

const berlin = parseSupportHours('Mon-Fri 09:00-17:30; Sat 10:00-14:00', 'Europe/Berlin');
const at = (iso: string) => Date.parse(iso);

describe('support hours', () => {
  it('is open inside a window and closed outside, in the configured zone', () => {
    expect(availability(berlin, at('2026-11-25T08:30:00Z'))).toEqual({ open: true }); // Wed 09:30 CET
    expect(availability(berlin, at('2026-11-25T07:59:00Z'))).toEqual({ open: false, opensAt: '2026-11-25T08:00:00.000Z' });
    // Saturday after 14:00 CET: back Monday 09:00 CET
    expect(availability(berlin, at('2026-11-28T13:00:00Z'))).toEqual({ open: false, opensAt: '2026-11-30T08:00:00.000Z' });
  });

  it('keeps 09:00 local across the spring daylight-saving change (Berlin, 29 March 2026)', () => {
    // Saturday 28 March 15:00 CET (UTC+1); Monday 30 March 09:00 is CEST (UTC+2) = 07:00Z
    expect(availability(berlin, at('2026-03-28T14:00:00Z'))).toEqual({ open: false, opensAt: '2026-03-30T07:00:00.000Z' });
    expect(availability(berlin, at('2026-03-30T07:00:00Z'))).toEqual({ open: true });
    expect(availability(berlin, at('2026-03-30T06:59:00Z')).open).toBe(false);
  });

  it('and across the autumn change (New York, 1 November 2026)', () => {
    const ny = parseSupportHours('Sun 08:00-12:00', 'America/New_York');
    // Sunday 1 Nov: clocks go back at 02:00 EDT; 08:00 is EST (UTC-5) = 13:00Z
    expect(availability(ny, at('2026-11-01T12:59:00Z'))).toEqual({ open: false, opensAt: '2026-11-01T13:00:00.000Z' });
    expect(availability(ny, at('2026-11-01T13:00:00Z'))).toEqual({ open: true });
  });

  it('refuses unreadable hours and unknown zones', () => {
    expect(() => parseSupportHours('Mon-Fri 9-5', 'UTC')).toThrow(/cannot read/);
    expect(() => parseSupportHours('Fri-Mon 09:00-17:00', 'UTC')).toThrow(/days/);
    expect(() => parseSupportHours('Mon 18:00-09:00', 'UTC')).toThrow(/times/);
    expect(() => parseSupportHours('Mon 09:00-17:00', 'Mars/Olympus')).toThrow(/time zone/);
  });

  it('stops the start with one line for bad hours, an unknown zone or bad profiles', () => {
    expect(() => loadConfig({ DEMO: 'true', SUPPORT_HOURS: 'weekdays' })).toThrow(/SUPPORT_HOURS/);
    expect(() => loadConfig({ DEMO: 'true', SUPPORT_TIMEZONE: 'Europe/Atlantis' })).toThrow(/unknown time zone/);
    expect(() => loadConfig({ DEMO: 'true', OPERATOR_PROFILES: '{"ada":' })).toThrow(/OPERATOR_PROFILES is not valid JSON/);
    expect(() => loadConfig({ DEMO: 'true', OPERATOR_PROFILES: '{"ada":{"avatarUrl":"javascript:x"}}' })).toThrow(/avatarUrl/);
  });
});
