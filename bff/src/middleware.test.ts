import { describe, expect, it } from 'vitest';
import { redactPath } from './middleware.js';

describe('redactPath', () => {
  it('hides flow tokens and bot keys in logged paths, and nothing else', () => {
    expect(redactPath('/sim/webhook/tok_secret123')).toBe('/sim/webhook/[redacted]');
    expect(redactPath('/sim/v1/bots/bk_live_9/messages/')).toBe('/sim/v1/bots/[redacted]/messages/');
    expect(redactPath('/sim/webhook/test/user-7')).toBe('/sim/webhook/test/user-7');
    expect(redactPath('/api/messages')).toBe('/api/messages');
    expect(redactPath('/webhooks/agent')).toBe('/webhooks/agent');
  });
});
