import { Hono } from 'hono';
import { textIn } from '../../../shared/localized.js';
import type { AppDeps, AppEnv } from '../context.js';
import { AppError } from '../errors.js';
import { callAllowance } from '../middleware.js';
import { routeMounter } from './mount.js';

/** POST /api/contact: an address the team can answer at, e.g. while nobody is there (docs/api.md "People"). */
export function contactRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = deps;

  routeMounter(app, deps)('POST /api/contact', [callAllowance(deps)], async (c) => {
    const { conversationId, user } = c.get('session');
    // The site told us this user's address in their identity token (VERIFIED_VARIABLES has it upstream).
    if (user?.emailKnown) throw new AppError('contact_known', 'This site already knows your address');
    const { email, name, consent, locale } = c.req.valid('json');
    if (config.consentText !== undefined && consent !== true) throw new AppError('consent_required', 'Tick the consent box to leave your address');
    const names = config.contactVariables;
    const consentAt = config.consentText === undefined ? undefined : new Date(deps.now?.() ?? Date.now()).toISOString();
    await deps.chat.setUserVariables(conversationId, {
      [names.email]: email,
      ...(name !== undefined && { [names.name]: name }),
      // What was agreed to, and when: the record a consent needs.
      // In the language the visitor read it: the same pick as the widget's (textIn).
      ...(consentAt !== undefined && { consent_at: consentAt, consent_text: textIn(config.consentText!, locale) }),
    });
    const data = { email, ...(name !== undefined && { name }), ...(consentAt !== undefined && { consentAt }) };
    await deps.store.append(conversationId, { event: 'contact', data });
    // Given with consent (the form's checkbox where CONSENT_TEXT asks): operators' answers may reach it.
    await deps.continuity?.note(conversationId, { email });
    return c.json({}, 202);
  });

  return app;
}
