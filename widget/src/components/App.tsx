/** The widget's root: theme and direction, then the launcher and floating panel, or the inline panel. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { pageScheme } from '../host-scheme.js';
import { textOn } from '../styles.js';
import type { Ctx } from '../ui/ctx.js';
import { Launcher } from './Launcher.js';
import { Panel } from './Panel.js';
import { Part } from '../ui/Part.js';

/** Everything the widget renders into its shadow root. */
export function App({ ctx }: { ctx: Ctx }) {
  const { store, options } = ctx;
  const { state, actions } = ctx.store;
  const root = useRef<HTMLDivElement>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  const open = state.open.value;
  const theme = state.config.value?.theme;
  const chosen = options.theme?.scheme || theme?.scheme || 'auto';
  // Read again when the panel opens or closes or the settings change, not on every render (an unread count, a message).
  const scheme = useMemo(() => (chosen === 'auto' ? pageScheme() : chosen), [chosen, open]);
  const left = (options.theme?.position || theme?.position) === 'left';
  // `launcher: 'hours'` and CLOSED_LAUNCHER=hide: outside the hours, no launcher for a visitor with no conversation.
  const handoff = state.config.value?.handoff;
  const away = options.launcher === 'hours' && handoff?.launcher === 'hide' && !handoff.open && state.convo.value === 'none' && !open;

  // On phones the panel follows the visual viewport, so the on-screen keyboard never hides the composer.
  useEffect(() => {
    const vv = window.visualViewport;
    const el = root.current;
    if (!vv || !el || ctx.inline) return;
    const fit = () => {
      el.style.setProperty('--vh', vv.height + 'px');
      el.style.setProperty('--vt', vv.offsetTop + 'px');
    };
    fit();
    vv.addEventListener('resize', fit);
    vv.addEventListener('scroll', fit);
    return () => {
      vv.removeEventListener('resize', fit);
      vv.removeEventListener('scroll', fit);
    };
  }, []);

  // Closing moves focus back to the launcher, unless the page already put it somewhere else.
  const wasOpen = useRef(open);
  useEffect(() => {
    const active = document.activeElement;
    if (wasOpen.current && !open && (!active || active === document.body || active === (root.current?.getRootNode() as ShadowRoot | undefined)?.host)) launcher.current?.focus();
    wasOpen.current = open;
  }, [open]);

  // Pointed at or focused, the launcher is about to be pressed: the panel is drawn now, hidden, so
  // that the press only shows it (docs/benchmarks.md: click to a focused composer).
  const [warm, setWarm] = useState(false);
  const close = () => actions.setOpen(false);
  return (
    <div
      ref={root}
      dir={ctx.dir}
      lang={ctx.locale}
      class={`root ${ctx.inline ? 'inline' : 'float'} ${scheme}${left ? ' left' : ''}${open ? ' open' : ''}${store.prefs.expanded.value ? ' expanded' : ''}${options.launcher === false ? ' bare' : ''}`}
      style={{
        '--pa': theme?.accent,
        '--pat': textOn(theme?.accent),
        '--parley-accent': options.theme?.accent,
        '--parley-accent-text': textOn(options.theme?.accent),
        '--ox': px(options.theme?.offset?.x),
        '--oy': px(options.theme?.offset?.y),
        '--parley-z-index': Number.isFinite(options.theme?.zIndex) ? String(options.theme!.zIndex) : undefined,
      }}
    >
      {ctx.inline ? (
        <Panel ctx={ctx} />
      ) : (
        <>
          {(open || warm) && <Panel ctx={ctx} onClose={close} hidden={!open} />}
          {/* The proactive message (parts chunk). */}
          {state.bubble.value && !open && <Part name="Proactive" ctx={ctx} props={{ ctx, launcher }} />}
          {options.launcher !== false && !away && <Launcher ctx={ctx} btn={launcher} onIntent={() => setWarm(true)} />}
        </>
      )}
    </div>
  );
}

/** A number of pixels as CSS; anything else leaves the default. */
const px = (n: unknown) => (Number.isFinite(n) ? n + 'px' : undefined);
