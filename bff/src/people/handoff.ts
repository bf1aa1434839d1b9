/** The `handoff` part of GET /api/config: whether a person can answer now, computed per request. */
import type { HandoffConfig } from '../../../shared/types.js';
import { availability, type SupportHours } from './support-hours.js';

interface HandoffSettings {
  supportHours: SupportHours | undefined;
  supportReplyTime: string;
  escalationOffer: HandoffConfig['offer'];
  closedLauncher: HandoffConfig['launcher'];
}

export function handoffNow(config: HandoffSettings, nowMs: number): HandoffConfig {
  const now = config.supportHours === undefined ? { open: true } : availability(config.supportHours, nowMs);
  return {
    offer: config.escalationOffer,
    ...now,
    replyTime: config.supportReplyTime,
    launcher: config.closedLauncher,
  };
}

/**
 * The one start-up line `CLOSED_LAUNCHER=hide` gets: the BFF cannot hide a launcher by itself (the
 * loader is the same file for every BFF), so it says what else the setting needs. Undefined for `show`.
 */
export function closedLauncherNote(config: Pick<HandoffSettings, 'supportHours' | 'closedLauncher'>): string | undefined {
  if (config.closedLauncher !== 'hide') return undefined;
  const embed = 'only on pages whose script tag has data-launcher="hours" (or init({launcher: "hours"})), see docs/embedding.md';
  return config.supportHours === undefined
    ? `CLOSED_LAUNCHER=hide does nothing without SUPPORT_HOURS (always open); with them it hides the launcher while the team is away ${embed}`
    : `CLOSED_LAUNCHER=hide hides the launcher while the team is away ${embed}`;
}
