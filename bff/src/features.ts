import type { AppDeps } from './context.js';

/** What this deployment offers the widget, decided once from the configuration and the backends. */
export interface Features {
  /** Talking to a person: agent mode with an operator address (ESCALATION_OPERATOR_EMAIL). */
  escalation: boolean;
  /** Chat uploads: an UPLOAD_FLOW with its token, and a flow client to send them with. */
  upload: boolean;
  /** Flows the widget may trigger by name (the upload flow is not one of them). */
  flows: readonly string[];
  /** Stopping a reply while it is written (model mode). */
  stop: boolean;
}

export type FeatureName = keyof Features;

const decided = new WeakMap<AppDeps, Readonly<Features>>();

/** The one place feature rules live; routes ask through `requireFeature`, `/api/config` shows the result. */
export function featuresOf(deps: AppDeps): Readonly<Features> {
  let features = decided.get(deps);
  if (!features) {
    const { config } = deps;
    const flowClient = deps.flows !== undefined;
    features = Object.freeze({
      escalation: deps.chat.mode === 'agent' && config.escalationOperatorEmail !== undefined,
      upload: flowClient && config.uploadFlow !== undefined && config.flowTokens[config.uploadFlow] !== undefined,
      flows: flowClient ? Object.keys(config.flowTokens).filter((name) => name !== config.uploadFlow) : [],
      stop: typeof deps.chat.stop === 'function',
    });
    decided.set(deps, features);
  }
  return features;
}

/** True when the feature is on (a non-empty list counts as on). */
export function featureOn(deps: AppDeps, name: FeatureName): boolean {
  const value = featuresOf(deps)[name];
  return Array.isArray(value) ? value.length > 0 : value === true;
}
