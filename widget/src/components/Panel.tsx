/** The chat panel: header with actions, banners, the log, and the composer or the ended notice. */
import { useEffect, useRef } from 'preact/hooks';
import { langOf, localized } from '../i18n.js';
import { Composer } from './Composer.js';
import { ConversationList, PastConversation } from './Conversations.js';
import type { Ctx } from './ctx.js';
import { CHAT, CLOSE, Icon, LIST } from './Icon.js';
import { MessageList } from './MessageList.js';

/** The panel; floating it is a dialog that `onClose` closes (button or Escape), inline a region. */
export function Panel({ c, onClose }: { c: Ctx; onClose?: () => void }) {
  const { s, t } = c;
  const ref = useRef<HTMLElement>(null);
  const title = c.o.title || c.o.strings?.title || localized(s.config.value?.title, langOf(c.o.locale)) || t.title;
  const convo = s.convo.value;
  const view = s.view.value;
  const focusInput = () => {
    const box = ref.current;
    // On touch screens focusing the text box would throw the keyboard over the conversation.
    const coarse = matchMedia('(pointer: coarse)').matches;
    (coarse ? box : box?.querySelector('textarea') || box)?.focus();
  };
  useEffect(() => {
    if (onClose) focusInput();
  }, []);
  // Full screen on a phone, the floating panel is modal: Tab cycles inside it, not into the page behind.
  const modal = !!onClose && !c.inline && matchMedia('(max-width: 480px)').matches;
  const trapTab = (e: KeyboardEvent) => {
    const box = ref.current!;
    const all = box.querySelectorAll<HTMLElement>('button:not([disabled]),textarea,a[href],input:not([type=file])');
    const first = all[0];
    const last = all[all.length - 1];
    const active = (box.getRootNode() as ShadowRoot).activeElement;
    if (!first || !last) return;
    if (e.shiftKey ? active === first || active === box : active === last) {
      e.preventDefault();
      (e.shiftKey ? last : first).focus();
    }
  };

  return (
    <section
      ref={ref}
      class="p"
      role={onClose ? 'dialog' : 'region'}
      aria-label={title}
      aria-modal={modal || undefined}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && onClose) {
          e.stopPropagation();
          onClose();
        }
        if (e.key === 'Tab' && modal) trapTab(e);
      }}
    >
      <div class="h">
        <h2>{title}</h2>
        {s.user.value && (
          <button type="button" class="ib" aria-label={view === 'chat' ? t.conversations : t.chat} onClick={view === 'chat' ? s.listConversations : s.showChat}>
            <Icon d={view === 'chat' ? LIST : CHAT} />
          </button>
        )}
        {view === 'chat' && s.canEscalate.value && (
          <button
            type="button"
            class="hb"
            onClick={() => {
              // The button goes away once asked: focus must not fall to <body>, where Escape does nothing.
              focusInput();
              void s.escalate();
            }}
          >
            {t.human}
          </button>
        )}
        {onClose && (
          <button type="button" class="ib" aria-label={t.close} onClick={onClose}>
            <Icon d={CLOSE} />
          </button>
        )}
      </div>
      {view === 'list' && <ConversationList c={c} />}
      {view === 'past' && <PastConversation c={c} />}
      {view === 'chat' && <Chat c={c} focusInput={focusInput} />}
    </section>
  );
}

/** The current conversation: banners, the log, and the composer or the ended notice. */
function Chat({ c, focusInput }: { c: Ctx; focusInput: () => void }) {
  const { s, t } = c;
  const convo = s.convo.value;
  return (
    <>
      {s.switched.value && (
        <p class="bn" role="status">
          {t.switched}
        </p>
      )}
      {(convo === 'escalated' || (s.escalating.value && convo === 'active')) && (
        <p class="bn" role="status">
          {t.escalated}
        </p>
      )}
      {!s.online.value && (
        <p class="bn" role="status">
          {t.offline}
        </p>
      )}
      <MessageList c={c} />
      {/* Only model replies stream, and they can be stopped. */}
      {s.messages.value.some((m) => m.streaming) && (
        <button type="button" class="hb" onClick={s.stop}>
          {t.stop}
        </button>
      )}
      {s.notice.value && (
        <p class="er" role="alert">
          {s.notice.value === 'model_unavailable_in_region' ? t.region : s.notice.value === 'budget_exhausted' ? t.budget : t.unavailable}
        </p>
      )}
      {convo === 'archived' ? (
        <div class="end">
          <p>{t.ended}</p>
          <button
            type="button"
            class="pb"
            onClick={() => {
              s.restart();
              setTimeout(focusInput);
            }}
          >
            {t.restart}
          </button>
          <button type="button" class="hb" onClick={() => s.transcript(t, c.locale)}>
            {t.transcript}
          </button>
        </div>
      ) : (
        <Composer c={c} />
      )}
    </>
  );
}
