/**
 * Telling a visitor who is looking elsewhere that an answer came: the page title carries the
 * unread count (restored once read) and, when the page asked for it, a short beep made with
 * Web Audio (no sound file to load, nothing for a CSP to allow).
 */
import { effect, type ReadonlySignal } from '@preact/signals';

/**
 * Keeps `document.title` prefixed with `(n) ` while `unread` is above zero. The page's own title
 * is what follows the prefix, so a title the page changes meanwhile is kept. Returns the disposer
 * (set `unread` to 0 first).
 */
export const titleCount = (unread: ReadonlySignal<number>) =>
  effect(() => {
    const n = unread.value;
    const pageTitle = document.title.replace(/^\(\d+\) /, '');
    document.title = n ? `(${n}) ${pageTitle}` : pageTitle;
  });

let audio: AudioContext | undefined;

/** A soft 0.2 s tone. Browsers keep audio silent until the visitor has interacted with the page: then nothing plays. */
export function beep(): void {
  try {
    const ctx = (audio ||= new AudioContext());
    const tone = ctx.createOscillator();
    const volume = ctx.createGain();
    const now = ctx.currentTime;
    tone.frequency.value = 880;
    volume.gain.value = 0.08;
    volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.2);
    tone.connect(volume).connect(ctx.destination);
    tone.start(now);
    tone.stop(now + 0.2);
  } catch {
    // no Web Audio here: the title count still tells
  }
}
