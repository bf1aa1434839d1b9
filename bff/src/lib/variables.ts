import type { VariableValue } from '../ports/upstream.js';

/**
 * Variables only the BFF sets, for the operator: who is writing, as verified. Page script cannot
 * set them (config refuses them in USER_VARIABLES), so their presence means "verified".
 */
export const VERIFIED_VARIABLES = ['verifiedUserId', 'verifiedEmail'] as const;

/** Why a set of user variables was refused: a name outside `USER_VARIABLES`, or a value of the wrong shape. */
export type VariablesProblem = { kind: 'not_allowed' | 'bad_value'; name: string };

/**
 * Checks user variables against the allowed names (`USER_VARIABLES`): values are strings up to
 * 1000 characters, finite numbers or booleans. Shared by `PATCH /api/user` and identity tokens.
 */
export function checkVariables(
  input: Record<string, unknown>,
  allowed: readonly string[],
): { variables: Record<string, VariableValue> } | { problem: VariablesProblem } {
  const variables: Record<string, VariableValue> = {};
  for (const [name, value] of Object.entries(input)) {
    if (!allowed.includes(name)) return { problem: { kind: 'not_allowed', name } };
    const ok = (typeof value === 'string' && value.length <= 1000) || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
    if (!ok) return { problem: { kind: 'bad_value', name } };
    variables[name] = value as VariableValue;
  }
  return { variables };
}
