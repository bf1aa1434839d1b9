import { describe, expect, it } from 'vitest';
import { ByteBudget } from './byte-budget.js';

describe('ByteBudget', () => {
  it('hands out bytes until the capacity is reached, and takes them back once', () => {
    const budget = new ByteBudget(100);
    const a = budget.take(60)!;
    expect(budget.take(41)).toBeUndefined();
    const b = budget.take(40)!;
    expect(budget.inUse).toBe(100);
    a();
    a(); // a second release gives nothing back twice
    expect(budget.inUse).toBe(40);
    expect(budget.take(61)).toBeUndefined();
    expect(budget.take(60)).toBeTypeOf('function');
    b();
    expect(budget.inUse).toBe(60);
  });

  it('a lease takes bytes as they come and gives all of them back at once', () => {
    const budget = new ByteBudget(100);
    const lease = budget.lease();
    expect([lease.take(30), lease.take(30)]).toEqual([true, true]);
    expect(budget.lease().take(41)).toBe(false);
    lease.release();
    lease.release();
    expect(budget.inUse).toBe(0);
  });

  it('an owner holds at most its share, so another owner still has room', () => {
    const budget = new ByteBudget(100, 40);
    const greedy = budget.lease('conversation-a');
    expect([greedy.take(30), greedy.take(10), greedy.take(1)]).toEqual([true, true, false]);
    expect(budget.lease('conversation-a').take(1)).toBe(false); // a second request of the same owner too
    expect(budget.lease('conversation-b').take(40)).toBe(true);
    greedy.release();
    expect(budget.lease('conversation-a').take(40)).toBe(true);
  });
});
