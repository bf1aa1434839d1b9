import type { PublicConfig } from '../../shared/types.js';

/** The longest message the BFF takes (`limits.textMaxLength`); 4000 before its settings arrive, its default. */
export function textMaxLength(config: PublicConfig | undefined): number {
  return config?.limits?.textMaxLength || 4000;
}
