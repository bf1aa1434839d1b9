/**
 * Components re-render when a signal they read changes: each function component renders inside
 * an `effect`, whose next run (a signal it read changed) asks for a new render. That is the part of
 * @preact/signals' Preact adapter the widget uses (it also binds signals put into JSX as such, and we
 * never do), at a tenth of its size in widget.js. Installed once, by importing this module.
 */
import { effect } from '@preact/signals-core';
import { Fragment, options, type FunctionComponent } from 'preact';
import { useEffect, useReducer, useRef } from 'preact/hooks';

type Component = FunctionComponent<any>;

// Each component's tracked twin, made once, so that Preact sees the same type on every render.
// A twin maps to itself: a vnode that is copied (cloneElement) is not wrapped twice.
const twins = new WeakMap<Component, Component>();

function twinOf(component: Component): Component {
  let twin = twins.get(component);
  if (!twin) {
    twin = (props: object, context: unknown) => {
      const [, rerender] = useReducer((n: number) => n + 1, 0);
      const stop = useRef<() => void>(undefined);
      stop.current?.(); // the last render's reads no longer count
      let out: ReturnType<Component> = null;
      let rendering = true;
      stop.current = effect(() => {
        if (rendering) out = component(props, context);
        else rerender(0);
        rendering = false;
      });
      useEffect(() => () => stop.current!(), []);
      return out;
    };
    twins.set(component, twin).set(twin, twin);
  }
  return twin;
}

const next = options.vnode;
options.vnode = (vnode) => {
  const type = vnode.type;
  // Function components only: not elements, not Fragment, not classes (they have a render method).
  if (typeof type === 'function' && type !== Fragment && !type.prototype?.render) vnode.type = twinOf(type as Component);
  next?.(vnode);
};
