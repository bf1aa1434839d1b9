import { describe, expect, it } from 'vitest';
import { parseMessageText } from '../../shared/badge.js';
import { BADGE_KINDS, BADGE_VARIANTS, badgeJson } from './badges.js';

// Contract with the widget side: every spelling the simulator sends must parse into the
// badge it means, never into `unsupported` or raw text.
describe('badge spellings against the shared parser', () => {
  for (const kind of BADGE_KINDS) {
    for (let variant = 0; variant < BADGE_VARIANTS; variant++) {
      it(`${kind}, spelling ${variant}`, () => {
        const parsed = parseMessageText(badgeJson(kind, variant, 'http://localhost:8787'));
        expect(parsed.text).toBeUndefined();
        expect(parsed.badge?.type).toBe(kind);
        const json = JSON.stringify(parsed.badge);
        if (['card', 'carousel', 'image', 'file'].includes(kind)) expect(json).toContain('http://localhost:8787/demo/assets/');
      });
    }
  }

  it('spellings really differ', () => {
    for (const kind of BADGE_KINDS) expect(badgeJson(kind, 0, 'http://x')).not.toBe(badgeJson(kind, 1, 'http://x'));
  });
});
