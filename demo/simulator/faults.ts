import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { SimError } from './errors.js';

/** A fault for the next `count` REST calls: answer `status` (with `Retry-After`), and/or wait `delayMs` first. */
export interface FaultSpec {
  status?: number;
  count?: number;
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
  /** Delay before answering (simulates a slow service; lets callers test their timeouts). */
  delayMs?: number;
  /** Handle the call, then drop the connection without an answer (a reset after the service acted). */
  reset?: boolean;
}

interface PendingFault {
  status?: number;
  remaining: number;
  retryAfter?: number;
  delayMs?: number;
  reset?: boolean;
}

/** Queue of injected faults, consumed one REST call at a time, oldest first. */
export class FaultInjector {
  private readonly pending: PendingFault[] = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  /** Validates and queues a fault; throws `SimError` 400 on a bad spec. */
  add(spec: FaultSpec): void {
    this.pending.push(validate(spec));
  }

  clear(): void {
    this.pending.length = 0;
  }

  /** What is still queued, for `GET /__faults`. */
  list(): FaultSpec[] {
    return this.pending.map(({ remaining, ...rest }) => ({ ...rest, count: remaining }));
  }

  /** Cancels waits of delayed calls (those calls then answer at once). */
  close(): void {
    this.clear();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Middleware for the REST routes: applies the oldest pending fault to this call. */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      const fault = this.pending[0];
      if (!fault) return next();
      fault.remaining--;
      if (fault.remaining <= 0) this.pending.shift();
      if (fault.delayMs) await this.sleep(fault.delayMs);
      if (fault.reset) {
        await next();
        // Node's socket, when served over HTTP: the caller sees the connection drop, not an answer.
        (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.destroy();
        return;
      }
      if (fault.status === undefined) return next();
      if (fault.retryAfter !== undefined) c.header('retry-after', String(fault.retryAfter));
      return c.json(
        { error: { code: 'injected_fault', message: `Fault injected by the simulator (status ${fault.status})` } },
        fault.status as ContentfulStatusCode,
      );
    };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }
}

function validate(spec: FaultSpec): PendingFault {
  const bad = (message: string): SimError => new SimError(400, 'invalid_fault', message);
  if (typeof spec !== 'object' || spec === null) throw bad('A fault must be an object');
  const { status, count = 1, retryAfter, delayMs, reset } = spec;
  if (status !== undefined && !(Number.isInteger(status) && status >= 400 && status <= 599)) {
    throw bad('"status" must be an integer from 400 to 599');
  }
  if (!(Number.isInteger(count) && count >= 1 && count <= 1000)) throw bad('"count" must be an integer from 1 to 1000');
  if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && retryAfter >= 0 && retryAfter <= 3600)) {
    throw bad('"retryAfter" must be whole seconds from 0 to 3600');
  }
  if (delayMs !== undefined && !(Number.isInteger(delayMs) && delayMs >= 0 && delayMs <= 60_000)) {
    throw bad('"delayMs" must be an integer from 0 to 60000');
  }
  if (reset !== undefined && typeof reset !== 'boolean') throw bad('"reset" must be true or false');
  if (reset && status !== undefined) throw bad('"reset" drops the connection; it cannot also answer a "status"');
  if (status === undefined && !delayMs && !reset) throw bad('Give "status", "delayMs", "reset" or a combination');
  const fault: PendingFault = { remaining: count };
  if (status !== undefined) fault.status = status;
  if (retryAfter !== undefined) fault.retryAfter = retryAfter;
  if (delayMs !== undefined) fault.delayMs = delayMs;
  if (reset) fault.reset = true;
  return fault;
}
