import type { Strings } from '../i18n.js';
import type { ParleyOptions } from '../public-types.js';
import type { Store } from '../store.js';

/** What every component gets: the store, the strings and the integrator's options. */
export interface Ctx {
  store: Store;
  strings: Strings;
  options: ParleyOptions;
  dir: 'ltr' | 'rtl';
  inline: boolean;
  /** BCP 47 locale for dates and times, matching the language of `strings`. */
  locale: string;
}
