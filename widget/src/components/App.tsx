/** The widget's root: theme and direction, then the launcher and floating panel, or the inline panel. */
import { useEffect, useRef } from 'preact/hooks';
import { pageScheme } from '../host-scheme.js';
import { textOn } from '../styles.js';
import type { Ctx } from './ctx.js';
import { Launcher } from './Launcher.js';
import { Panel } from './Panel.js';
import { CLOSE, Icon } from './Icon.js';

/** Everything the widget renders into its shadow root. */
export function App({ c }: { c: Ctx }) {
  const { s, o } = c;
  const root = useRef<HTMLDivElement>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  const open = s.open.value;
  const theme = s.config.value?.theme;
  const chosen = o.theme?.scheme || theme?.scheme || 'auto';
  const scheme = chosen === 'auto' ? pageScheme() : chosen;
  const left = (o.theme?.position || theme?.position) === 'left';

  // On phones the panel follows the visual viewport, so the on-screen keyboard never hides the composer.
  useEffect(() => {
    const vv = window.visualViewport;
    const el = root.current;
    if (!vv || !el || c.inline) return;
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

  const close = () => s.setOpen(false);
  return (
    <div
      ref={root}
      dir={c.dir}
      class={`r ${c.inline ? 'inline' : 'float'} ${scheme}${left ? ' left' : ''}${open ? ' o' : ''}${o.launcher === false ? ' nl' : ''}`}
      style={{
        '--pa': theme?.accent,
        '--pat': textOn(theme?.accent),
        '--parley-accent': o.theme?.accent,
        '--parley-accent-text': textOn(o.theme?.accent),
      }}
    >
      {c.inline ? (
        <Panel c={c} />
      ) : (
        <>
          {open && <Panel c={c} onClose={close} />}
          {/* The proactive message, in a live region so that screen readers hear it appear. */}
          {s.bubble.value && !open && (
            <div class="pm" role="status">
              <button type="button" class="pt" onClick={() => s.setOpen(true)}>
                {s.proactive.value}
              </button>
              <button type="button" class="ib" aria-label={c.t.dismiss} onClick={s.dismiss}>
                <Icon d={CLOSE} />
              </button>
            </div>
          )}
          {o.launcher !== false && <Launcher c={c} btn={launcher} />}
        </>
      )}
    </div>
  );
}
