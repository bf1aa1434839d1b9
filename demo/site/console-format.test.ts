import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain browser module of the demo pages, without types
import * as format from './console-format.js';

const { filterConversations, isWaiting, languageName, otherVariables, pagePath, ratingOf, shortClock, stars, visitorName, STALE_MS } = format as {
  filterConversations: (list: Conv[], filter: string, now?: number) => Conv[];
  isWaiting: (c: Conv) => boolean;
  languageName: (tag: unknown, locales?: string | string[]) => string | undefined;
  otherVariables: (v: Record<string, unknown>) => [string, unknown][];
  pagePath: (page: unknown) => string | undefined;
  ratingOf: (v: Record<string, unknown>) => { score: number; comment?: string } | undefined;
  shortClock: (ms: number, locales?: string) => string;
  stars: (score: number) => string;
  visitorName: (c: Partial<Conv>) => string;
  STALE_MS: number;
};

interface Conv { id: number; state: string; updatedAt: number; profileName?: string; lastMessage: { hbo: string } | null }

const NOW = Date.UTC(2026, 10, 28, 18, 25);
const conv = (id: number, state: string, ageMs: number, lastBy: string | null): Conv => ({ id, state, updatedAt: NOW - ageMs, lastMessage: lastBy ? { hbo: lastBy } : null });

describe('the console list', () => {
  it('tells visitors apart by the end of their ids, where the digits differ', () => {
    expect(visitorName({ id: 17958863412 })).toBe('Visitor …3412');
    expect(visitorName({ id: 17958863977 })).toBe('Visitor …3977');
    expect(visitorName({ id: 17958863412, profileName: 'Ada' })).toBe('Ada');
  });

  it('waits on a person when handed over and the customer spoke last', () => {
    expect(isWaiting(conv(1, 'escalated', 0, 'user'))).toBe(true);
    expect(isWaiting(conv(2, 'escalated', 0, null))).toBe(true);
    expect(isWaiting(conv(3, 'escalated', 0, 'operator'))).toBe(false);
    expect(isWaiting(conv(4, 'active', 0, 'user'))).toBe(false);
  });

  it('leaves archived and long-untouched answered chats out of the default list, never one still waiting', () => {
    const list = [
      conv(1, 'active', 1000, 'bot'),
      conv(2, 'archived', 1000, 'user'),
      conv(3, 'escalated', STALE_MS + 1000, 'operator'),
      conv(4, 'escalated', STALE_MS + 1000, 'user'),
      conv(5, 'escalated', 60_000, 'operator'),
    ];
    expect(filterConversations(list, 'open', NOW).map((c) => c.id)).toEqual([1, 4, 5]);
    expect(filterConversations(list, 'waiting', NOW).map((c) => c.id)).toEqual([4]);
    expect(filterConversations(list, 'all', NOW).map((c) => c.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('names the language and the page', () => {
    expect(languageName('de-AT', 'en')).toBe('German');
    expect(languageName(undefined)).toBeUndefined();
    expect(pagePath('https://shop.example/products/tent?c=1')).toBe('/products/tent?c=1');
    expect(pagePath(42)).toBeUndefined();
  });
});

describe('the conversation detail', () => {
  it('reads a rating as a score with its comment, and leaves it out of the variables', () => {
    expect(ratingOf({ csat: 4, csat_comment: ' Quick and kind ' })).toEqual({ score: 4, comment: 'Quick and kind' });
    expect(ratingOf({ csat: '5' })).toEqual({ score: 5, comment: undefined });
    expect(ratingOf({ csat: 9 })).toBeUndefined();
    expect(ratingOf({})).toBeUndefined();
    expect(stars(4)).toBe('★★★★☆');
    expect(otherVariables({ csat: 4, csat_comment: 'x', locale: 'de' })).toEqual([['locale', 'de']]);
  });

  it('shows times in the reader\'s locale without seconds', () => {
    const at = new Date(2026, 10, 28, 18, 25, 47).getTime();
    expect(shortClock(at, 'de-DE')).toBe('18:25');
    expect(shortClock(at, 'en-US')).toMatch(/^6:25\sPM$/);
  });
});
