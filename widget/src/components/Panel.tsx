/** The chat panel: header with actions, banners, the log, and the composer or the ended notice. */
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { fill, langOf, localized } from '../i18n.js';
import { Part } from '../ui/Part.js';
import { asksPrechat } from '../prechat.js';
import { whoOf } from './Author.js';
import { Composer } from './Composer.js';
import { HeaderMenu } from './HeaderMenu.js';
import { awayUntil, showsContact, TeamLine } from './Team.js';
import type { Ctx } from '../ui/ctx.js';
import { CHAT, CLOSE, Icon, LIST } from '../ui/Icon.js';
import { greetingOf, MessageList } from './MessageList.js';

/** The panel's title (also the transcript's): the page's, the integrator's string, the server's, or ours. */
export const titleOf = ({ options, store, strings }: Ctx): string =>
  options.title || options.strings?.title || localized(store.state.config.value?.title, langOf(options.locale)) || strings.title;

/** Saves the transcript (header menu and ended panel alike): named after the panel's title, starting with the greeting shown. */
const saveTranscript = (ctx: Ctx) => void ctx.store.actions.transcript(ctx.strings, ctx.locale, whoOf(ctx), { title: titleOf(ctx), greeting: greetingOf(ctx) });

/**
 * The panel; floating it is a dialog that `onClose` closes (button or Escape), inline a region.
 * `hidden`: drawn ahead of opening, out of sight and out of reach (inert) until it opens.
 */
export function Panel({ ctx, onClose, hidden }: { ctx: Ctx; onClose?: () => void; hidden?: boolean }) {
  const { strings } = ctx;
  const { state, actions } = ctx.store;
  const ref = useRef<HTMLElement>(null);
  const title = titleOf(ctx);
  const convo = state.convo.value;
  const view = state.view.value;
  const focusInput = () => {
    const box = ref.current;
    // On touch screens focusing the text box would throw the keyboard over the conversation.
    const coarse = matchMedia('(pointer: coarse)').matches;
    // The pre-chat form's first box stands where the text box will be.
    (coarse ? box : box?.querySelector<HTMLElement>('.prechat input, textarea') || box)?.focus();
  };
  // On opening, before the first paint, not a frame later: a click on the launcher lands in the text box at once.
  useLayoutEffect(() => {
    if (onClose && !hidden) focusInput();
  }, [hidden]);
  // Back in the chat from the list (a conversation picked, a new one): the button pressed went with
  // the list, often before this render, so focus is on <body>; the text box takes it. (The list and a
  // past conversation focus their own heading.)
  const lastView = useRef(view);
  useLayoutEffect(() => {
    if (view === 'chat' && lastView.current !== 'chat' && !hidden && focusFell(ref.current)) focusInput();
    lastView.current = view;
  }, [view]);
  // Full screen on a phone, the floating panel is modal: Tab cycles inside it, not into the page behind.
  const modal = !!onClose && !ctx.inline && matchMedia('(max-width: 480px)').matches;
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

  const canDrop = (e: DragEvent) => !!state.config.value?.features.upload && view === 'chat' && convo !== 'archived' && !!e.dataTransfer?.types.includes('Files');
  // Files over the panel: it says it takes them, until they leave it or are dropped.
  const [dragging, setDragging] = useState(false);
  return (
    <section
      ref={ref}
      class={hidden ? 'panel warm' : 'panel'}
      inert={hidden}
      aria-hidden={hidden || undefined}
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
      // Files dropped anywhere on the panel go the way of the attach button (same limits, same message).
      onDragOver={(e) => {
        if (!canDrop(e)) return;
        e.preventDefault();
        if (!dragging) setDragging(true);
      }}
      onDragLeave={(e) => {
        // Leaving a child for another part of the panel is no leaving; out of the window, relatedTarget is null.
        if (!ref.current?.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(e) => {
        setDragging(false);
        if (!canDrop(e)) return;
        e.preventDefault();
        actions.attach(Array.from(e.dataTransfer!.files));
      }}
    >
      <div class="header">
        <h2>{title}</h2>
        {state.user.value && (
          <button type="button" class="icon" aria-label={view === 'chat' ? strings.conversations : strings.chat} onClick={view === 'chat' ? actions.listConversations : actions.showChat}>
            <Icon d={view === 'chat' ? LIST : CHAT} />
          </button>
        )}
        <HeaderMenu ctx={ctx} transcript={() => saveTranscript(ctx)} />
        {onClose && (
          <button type="button" class="icon" aria-label={strings.close} onClick={onClose}>
            <Icon d={CLOSE} />
          </button>
        )}
      </div>
      {/* Below the header, not in it: "Mit einem Menschen sprechen" would not fit beside the title on a
          phone. With the reply-time line beside it, one compact line there (styles.ts). */}
      {view === 'chat' && (
        <div class="reach">
          {state.canEscalate.value && (
            <button
              type="button"
              class="pill"
              onClick={() => {
                // The button goes away once asked: focus must not fall to <body>, where Escape does nothing.
                focusInput();
                void actions.escalate();
              }}
            >
              {strings.human}
            </button>
          )}
          <TeamLine ctx={ctx} />
        </div>
      )}
      {view === 'list' && <Part name="ConversationList" ctx={ctx} props={{ ctx }} />}
      {view === 'past' && <Part name="PastConversation" ctx={ctx} props={{ ctx }} />}
      {view === 'chat' && <Chat ctx={ctx} focusInput={focusInput} panel={ref} />}
      {dragging && (
        <div class="drop-target" aria-hidden="true">
          {strings.dropFiles}
        </div>
      )}
    </section>
  );
}

/** The current conversation: banners, the log, and the composer or the ended notice. */
function Chat({ ctx, focusInput, panel }: { ctx: Ctx; focusInput: () => void; panel: RefObject<HTMLElement | null> }) {
  const { strings } = ctx;
  const { state, actions } = ctx.store;
  const convo = state.convo.value;
  const away = state.config.value?.handoff?.open === false;
  const until = awayUntil(ctx);
  // Before the first message, or after: a person will answer, or the team is away (until when, if known).
  const [now, sometime, later] =
    convo === 'none'
      ? [strings.escalateFirst, strings.escalateFirstAway, strings.escalateFirstAwayUntil]
      : [strings.escalated, strings.escalatedAway, strings.escalatedAwayUntil];
  const ended = useRef<HTMLParagraphElement>(null);
  const prechat = convo !== 'archived' && asksPrechat(state, ctx.options);
  // What had focus went away with this render (the text box when the conversation ended elsewhere
  // or the pre-chat form took its place, Stop when the answer finished, the list when a
  // conversation was opened): focus must not fall to <body>, where Escape does nothing. The ended
  // notice takes it and is read; otherwise the text box (`focusInput`: the panel until the pre-chat
  // form is drawn, Prechat.tsx takes it on). Asked while rendering, before anything is removed; a
  // reader elsewhere on the page, or one who moved on (Escape to the launcher), is left there.
  const hadFocus = useRef(false);
  hadFocus.current = hasFocusWithin(panel.current);
  useLayoutEffect(() => {
    if (!hadFocus.current || !focusFell(panel.current)) return;
    if (convo === 'archived') ended.current?.focus();
    else focusInput();
  });
  return (
    <>
      {state.switched.value && (
        <p class="banner" role="status">
          {strings.switched}
        </p>
      )}
      {state.welcome.value && <Part name="WelcomeBack" ctx={ctx} props={{ ctx }} />}
      {/* Who answers now: a person, or while away the team and when it is back (then the team line gives way to it). */}
      {state.awaitingPerson.value && (
        <p class="banner" role="status">
          {!away ? now : until ? fill(later, { when: until }) : sometime}
        </p>
      )}
      {/* The browser offline, else the BFF out of reach (sync.ts). */}
      {(!state.online.value || !state.reachable.value) && (
        <p class="banner" role="status">
          {state.online.value ? strings.unreachable : strings.offline}
        </p>
      )}
      <MessageList ctx={ctx} />
      {/* Only model replies stream, and they can be stopped. */}
      {state.messages.value.some((m) => m.streaming && !m.stopped) && (
        <button
          type="button"
          class="pill"
          onClick={() => {
            // Stop goes away with the answer: focus must not fall to <body>.
            focusInput();
            void actions.stop();
          }}
        >
          {strings.stop}
        </button>
      )}
      {state.notice.value && <Part name="Notice" ctx={ctx} props={{ ctx }} />}
      {convo === 'archived' ? (
        <div class="end">
          <p ref={ended} tabIndex={-1}>
            {state.gone.value ? strings.gone : strings.ended}
            {/* The refused text waits in the box of the next conversation: said here, where the box is not. */}
            {state.failed.value && <> {strings.notSentKept}</>}
          </p>
          <Part
            name="EndActions"
            ctx={ctx}
            props={{
              ctx,
              restart() {
                actions.restart();
                setTimeout(focusInput);
              },
              transcript: () => saveTranscript(ctx),
            }}
          />
        </div>
      ) : prechat ? (
        <Part name="Prechat" ctx={ctx} props={{ ctx, focusInput }} />
      ) : (
        <>
          {showsContact(ctx) && <Part name="ContactForm" ctx={ctx} props={{ ctx }} />}
          <Composer ctx={ctx} />
        </>
      )}
    </>
  );
}

/** The focused element in `el`'s root (the widget's shadow root, or the page). */
function activeIn(el: HTMLElement | null): Element | null {
  const root = el?.getRootNode();
  return root instanceof ShadowRoot ? root.activeElement : document.activeElement;
}

/** True when the focused element is inside `el`. */
function hasFocusWithin(el: HTMLElement | null): boolean {
  const active = activeIn(el);
  return !!active && !!el?.contains(active);
}

/** True when nothing has focus any more: the element that had it was removed or disabled. */
function focusFell(el: HTMLElement | null): boolean {
  const active = activeIn(el);
  return !active || active === document.body || !active.isConnected;
}
