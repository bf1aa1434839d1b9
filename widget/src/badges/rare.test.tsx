import { cleanup, render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { Badge } from '../../../shared/types.js';
import { freshBrowserEachTest, makeCtx, mockFetch, sessionBody } from '../../test/support.js';
import { BadgeView } from './index.js';

// A file of its own: no other test has fetched the parts chunk yet.
freshBrowserEachTest(cleanup);

describe('a kind few conversations meet (rare.tsx)', () => {
  it('draws a rare kind once the parts chunk is in: nothing before, then the badge', async () => {
    mockFetch({ 'POST /api/session': { status: 201, body: sessionBody() } });
    const { ctx } = await makeCtx();
    const list: Badge = { type: 'list', text: 'Day hikes', items: [{ title: 'Lake loop' }, { title: 'Ridge walk' }] };
    const { container } = render(<BadgeView badge={list} ctx={ctx} last />);
    expect(container.querySelector('ul.list')).toBeNull();
    expect((await screen.findAllByRole('listitem', {}, { timeout: 10_000 })).map((li) => li.textContent)).toEqual(['Lake loop', 'Ridge walk']);
    expect(screen.getByText('Day hikes')).toBeTruthy();
  });
});
