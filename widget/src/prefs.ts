/**
 * The visitor's own settings of the panel, remembered in localStorage for the whole site (unlike the
 * open panel, which is per tab): whether answers beep (the page's `sound` option is only the default)
 * and whether the floating panel takes the window's full height.
 */
import { signal } from '@preact/signals';

const SOUND = 'parley:sound';
const EXPANDED = 'parley:expanded';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage blocked: the settings last as long as the page
  }
}

function write(key: string, on: boolean) {
  try {
    localStorage.setItem(key, on ? '1' : '0');
  } catch {
    // storage blocked: see read
  }
}

/** The two settings as signals, with toggles that remember the new value. */
export function createPrefs(soundDefault = false) {
  const stored = read(SOUND);
  const sound = signal(stored === null ? soundDefault : stored === '1');
  const expanded = signal(read(EXPANDED) === '1');
  return {
    sound,
    expanded,
    toggleSound() {
      sound.value = !sound.value;
      write(SOUND, sound.value);
    },
    toggleExpanded() {
      expanded.value = !expanded.value;
      write(EXPANDED, expanded.value);
    },
  };
}
