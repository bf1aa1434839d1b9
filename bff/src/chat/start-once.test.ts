import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStartRecords } from '../adapters/memory-limits.js';
import { silentLogger } from '../logger.js';
import { startOnce, type Started } from './start-once.js';

const key = { startKey: 'k'.repeat(20), origin: 'https://shop.example', text: 'hello' };

describe('startOnce', () => {
  afterEach(() => vi.useRealTimers());

  it('answers a repeat whose first try never ends, after waiting 10 s for it, with 409 start_in_progress', async () => {
    vi.useFakeTimers();
    const deps = { starts: new MemoryStartRecords(), logger: silentLogger };
    void startOnce(deps, key, () => new Promise<Started>(() => {}));
    const repeat = startOnce(deps, key, async () => ({ conversationId: 'second' }));
    const outcome = repeat.then(
      () => 'started',
      (err: { code?: string; retryAfterSec?: number }) => `${err.code} ${err.retryAfterSec}`,
    );
    await vi.advanceTimersByTimeAsync(9_900);
    expect(await Promise.race([outcome, 'waiting'])).toBe('waiting');
    await vi.advanceTimersByTimeAsync(300);
    expect(await outcome).toBe('start_in_progress 1');
  });

  it('lets a repeat start after the first try failed, and keeps what it made for the next one', async () => {
    const deps = { starts: new MemoryStartRecords(), logger: silentLogger };
    await expect(startOnce(deps, key, () => Promise.reject(new Error('service down')))).rejects.toThrow('service down');
    expect(await startOnce(deps, key, async () => ({ conversationId: '42', state: 'escalated' }))).toEqual({ conversationId: '42', state: 'escalated' });
    expect(await startOnce(deps, key, async () => ({ conversationId: 'never' }))).toEqual({ conversationId: '42', state: 'escalated' });
    // The same key from another page or with other words is another start.
    expect(await startOnce(deps, { ...key, origin: 'https://other.example' }, async () => ({ conversationId: '43' }))).toEqual({ conversationId: '43' });
  });

  it('answers the start although it could not be recorded (the store failed after the service took it)', async () => {
    const starts = new MemoryStartRecords();
    starts.finish = () => Promise.reject(new Error('redis down'));
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    expect(await startOnce({ starts, logger }, key, async () => ({ conversationId: '7' }))).toEqual({ conversationId: '7' });
    expect(warnings).toEqual(['start not recorded; a repeat of it would start another conversation']);
  });
});
