import type { Observer } from '../ports/observer.js';

/** One observer that forwards every call to each of `observers`, isolating their failures. */
export function combineObservers(...observers: Array<Observer | undefined>): Observer {
  const list = observers.filter((o): o is Observer => o !== undefined);
  const each =
    <K extends keyof Observer>(key: K) =>
    (...args: Parameters<NonNullable<Observer[K]>>) => {
      for (const o of list) {
        try {
          (o[key] as ((...a: unknown[]) => void) | undefined)?.(...args);
        } catch {
          // an observer's failure never reaches a request
        }
      }
    };
  return {
    webhook: each('webhook'),
    upstreamCall: each('upstreamCall'),
    streamOpened: each('streamOpened'),
    streamClosed: each('streamClosed'),
    delivered: each('delivered'),
    feedback: each('feedback'),
  };
}
