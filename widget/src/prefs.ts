/**
 * The visitor's own settings of the panel, remembered in localStorage for the whole site (unlike the
 * open panel, which is per tab): whether answers beep (the page's `sound` option is only the default)
 * and whether the floating panel takes the window's full height.
 */
import { signal, type ReadonlySignal } from '@preact/signals';
import { keep, kept } from './storage.js';

const SOUND = 'parley:sound';
const EXPANDED = 'parley:expanded';

/** The two settings as signals, with toggles that remember the new value. */
export function createPrefs(soundDefault = false) {
  // Stored as 1 and 0 (JSON numbers).
  const stored = kept<number>('localStorage', SOUND);
  const sound = signal(stored === undefined ? soundDefault : stored === 1);
  const expanded = signal(kept<number>('localStorage', EXPANDED) === 1);
  return {
    sound: sound as ReadonlySignal<boolean>,
    expanded: expanded as ReadonlySignal<boolean>,
    toggleSound() {
      sound.value = !sound.value;
      keep('localStorage', SOUND, +sound.value);
    },
    toggleExpanded() {
      expanded.value = !expanded.value;
      keep('localStorage', EXPANDED, +expanded.value);
    },
  };
}
