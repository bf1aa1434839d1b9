import { userVariableProblem } from '../../../shared/bodies.js';
import type { VariableValue } from '../ports/upstream.js';

/**
 * Variables only the BFF sets, for the operator: who is writing, as verified. Page script cannot
 * set them (config refuses them in USER_VARIABLES), so their presence means "verified".
 */
export const VERIFIED_VARIABLES = ['verifiedUserId', 'verifiedEmail'] as const;

/** A user variable name a setting gives the BFF to write (CONTACT_VARIABLES, LOCALE_VARIABLE). */
export const SETTING_VARIABLE_NAME = /^[A-Za-z0-9_]{1,64}$/;

/** Why a set of user variables was refused: a name outside `USER_VARIABLES`, or a value of the wrong shape. */
export type VariablesProblem = { kind: 'not_allowed' | 'bad_value'; name: string };

/**
 * Checks an identity token's user variables against the allowed names (`USER_VARIABLES`) by the
 * rule `PATCH /api/user`'s schema applies (shared/bodies.ts `UserVariablesBody`).
 */
export function checkVariables(
  input: Record<string, unknown>,
  allowed: readonly string[],
): { variables: Record<string, VariableValue> } | { problem: VariablesProblem } {
  const problem = userVariableProblem(input, allowed);
  return problem ? { problem } : { variables: input as Record<string, VariableValue> };
}
