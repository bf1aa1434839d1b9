import { describe, expect, it, vi } from 'vitest';
import { createParley } from './esm.js';

vi.mock('./chat.js', () => {
  throw new Error('offline');
});

describe('widget.mjs when the chat module cannot load', () => {
  it("tells the widget's error handlers, and the calls made meanwhile throw nothing into the page", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const errors: unknown[] = [];
    const chat = createParley({ bff: 'https://chat.example.com' });
    chat.on('error', (e) => errors.push(e));
    chat.open();
    chat.send('hello');
    await vi.waitFor(() => expect(errors).toEqual([{ code: 'chat_unavailable', message: expect.stringMatching(/^The chat could not load: /) }]));
    expect(warn).toHaveBeenCalledOnce();
  });
});
