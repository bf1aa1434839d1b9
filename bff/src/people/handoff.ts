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
