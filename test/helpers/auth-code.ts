import { AuthError } from '../../bff/src/errors.js';

/** The code of the `AuthError` the promise rejects with; undefined when it resolves. */
export async function authCode(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return err instanceof AuthError ? err.code : `unexpected: ${String(err)}`;
  }
}
