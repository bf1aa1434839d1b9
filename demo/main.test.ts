import { describe, expect, it } from 'vitest';
import { demoPages, firstConversationId, withDemoDefaults } from './main.js';

describe('the demo on this machine or the network', () => {
  it('listens on 127.0.0.1 when it runs because nothing was configured, everywhere when DEMO=true asks for it, and as HOST says', () => {
    expect(withDemoDefaults({}).HOST).toBe('127.0.0.1');
    expect(withDemoDefaults({ DEMO: 'true' }).HOST).toBe('0.0.0.0'); // the image: its port is published
    expect(withDemoDefaults({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(withDemoDefaults({ DEMO: 'true', HOST: '127.0.0.1' }).HOST).toBe('127.0.0.1');
  });

  it('says when anyone on the network can reach its console, which has no sign-in', () => {
    expect(demoPages('http://localhost:8787/', '127.0.0.1')).toMatch(/Only this machine can reach it/);
    for (const host of ['0.0.0.0', '::']) {
      const pages = demoPages('http://localhost:8787', host);
      expect(pages).toContain(`every network interface (HOST=${host})`);
      expect(pages).toContain('Operator console                http://localhost:8787/console');
    }
  });

  it("starts each run's conversation ids past every earlier run's, and two runs in one second rarely at the same id", () => {
    const now = Date.UTC(2026, 10, 26, 14, 33, 21, 500);
    const same = new Set(Array.from({ length: 50 }, () => firstConversationId(now)));
    expect(same.size).toBeGreaterThan(30);
    for (const id of same) {
      expect(String(id)).toMatch(/^\d{15}$/); // the simulator takes ids of up to 15 digits back after a restart
      // Within this second's range, a whole block of 1,000 before the next second's: an earlier run's ids are all lower.
      const second = Math.floor(now / 1000) * 100_000;
      expect(id).toBeGreaterThanOrEqual(second);
      expect(id + 1000).toBeLessThanOrEqual(second + 100_000);
    }
  });
});

describe('the demo launcher while the team is away', () => {
  it('hides the launcher while away only when there are support hours to be away from', () => {
    expect(withDemoDefaults({}).CLOSED_LAUNCHER).toBeUndefined();
    expect(withDemoDefaults({ SUPPORT_HOURS: 'Mon 00:00-00:01' }).CLOSED_LAUNCHER).toBe('hide');
    expect(withDemoDefaults({ SUPPORT_HOURS: 'Mon 00:00-00:01', CLOSED_LAUNCHER: 'show' }).CLOSED_LAUNCHER).toBe('show');
  });
});
