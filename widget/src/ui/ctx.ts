import type { Strings } from '../i18n.js';
import type { ParleyOptions } from '../public-types.js';

/**
 * The store as components see it (`{state, actions, …}`): store.ts adds its own type here
 * (declaration merging), so that components, which the store's slices reach through the parts
 * chunk and the badge kinds, never import the store.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface, @typescript-eslint/no-empty-object-type
export interface CtxStore {}

/** What every component gets: the store, the strings and the integrator's options. */
export interface Ctx {
  store: CtxStore;
  strings: Strings;
  options: ParleyOptions;
  dir: 'ltr' | 'rtl';
  inline: boolean;
  /** BCP 47 locale for dates and times, matching the language of `strings`. */
  locale: string;
}
