import { cleanup } from '@testing-library/preact';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { badgeCss } from '../../../scripts/css-lines.mjs';
import { BADGE_TYPES } from '../../../shared/badge-kinds.js';
import { freshBrowserEachTest } from '../../test/support.js';

freshBrowserEachTest(cleanup);

const rules = (css: string) => css.split(/(?<=\})\n?/).map((rule) => rule.trim()).filter(Boolean).sort();

describe('the badge registry', () => {
  it('has a renderer for every kind of the Badge union, and no other', async () => {
    const { BADGES } = await import('./index.js');
    expect(Object.keys(BADGES).sort()).toEqual([...BADGE_TYPES].sort());
  });

  it("gives the stylesheets every kind's CSS: the chat's kinds with the chat, the rare ones with the parts; widget.css reads the same rules from the files", async () => {
    const { BADGE_CSS } = await import('./index.js');
    const { RARE_BADGE_CSS, RARE_BADGES } = await import('./rare.js');
    expect(RARE_BADGE_CSS).toContain('.carousel{');
    expect(BADGE_CSS).not.toContain('.carousel{');
    expect(Object.keys(RARE_BADGES).length).toBeGreaterThan(0);
    expect(rules(BADGE_CSS + RARE_BADGE_CSS)).toEqual(rules(badgeCss(join(process.cwd(), 'widget/src/badges')).replace(/\n/g, '')));
  });
});
