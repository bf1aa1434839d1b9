import type { Observer } from '../ports/observer.js';

// Every hook of Observer: the compiler refuses this table when one is missing, so none is dropped.
const HOOK_TABLE = {
  webhook: true,
  upstreamCall: true,
  streamOpened: true,
  streamClosed: true,
  streamRefused: true,
  delivered: true,
  feedback: true,
  csat: true,
  feedbackForward: true,
  email: true,
} satisfies Record<keyof Observer, true>;
const HOOKS = Object.keys(HOOK_TABLE) as Array<keyof Observer>;

// Fails to compile when a hook gains a second parameter, which `each` below would drop.
type AtMostOneArgument = { [K in keyof Observer]-?: Parameters<NonNullable<Observer[K]>>['length'] extends 0 | 1 ? true : never };
const oneArgument: AtMostOneArgument = HOOK_TABLE;
void oneArgument;

/** One observer that forwards every call to each of `observers`, isolating their failures. */
export function combineObservers(...observers: Array<Observer | undefined>): Observer {
  const list = observers.filter((o): o is Observer => o !== undefined);
  // Every hook takes at most one argument (checked below): one parameter, not a rest array,
  // as `webhook` runs for every webhook.
  const each =
    <K extends keyof Observer>(key: K) =>
    (arg?: Parameters<NonNullable<Observer[K]>>[0]) => {
      for (const o of list) {
        try {
          (o[key] as ((a: unknown) => void) | undefined)?.(arg);
        } catch {
          // an observer's failure never reaches a request
        }
      }
    };
  return Object.fromEntries(HOOKS.map((key) => [key, each(key)])) as Observer;
}
