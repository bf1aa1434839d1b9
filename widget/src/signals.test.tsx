import { signal } from '@preact/signals';
import { act, cleanup, render, screen } from '@testing-library/preact';
import { useState } from 'preact/hooks';
import { afterEach, describe, expect, it } from 'vitest';

afterEach(cleanup);

describe('components that read signals', () => {
  it('re-render when a signal they read changes, and only they', () => {
    const count = signal(0);
    const renders = { parent: 0, child: 0 };
    function Child() {
      renders.child++;
      return <b>{count.value}</b>;
    }
    function Parent() {
      renders.parent++;
      return (
        <p>
          <Child />
        </p>
      );
    }
    render(<Parent />);
    act(() => void (count.value = 5));
    expect(screen.getByText('5')).toBeTruthy();
    expect(renders).toEqual({ parent: 1, child: 2 });
  });

  it('follow only what the last render read, keep their hooks, and stop after unmount', () => {
    const which = signal<'a' | 'b'>('a');
    const a = signal('A1');
    const b = signal('B1');
    let renders = 0;
    let setLocal: (v: string) => void = () => {};
    function View() {
      renders++;
      const [local, set] = useState('x');
      setLocal = set;
      return <i>{(which.value === 'a' ? a.value : b.value) + local}</i>;
    }
    const { unmount } = render(<View />);
    act(() => void (which.value = 'b'));
    expect(screen.getByText('B1x')).toBeTruthy();
    const before = renders;
    act(() => void (a.value = 'A2')); // no longer read
    expect(renders).toBe(before);
    act(() => setLocal('y'));
    expect(screen.getByText('B1y')).toBeTruthy();
    act(() => void (b.value = 'B2'));
    expect(screen.getByText('B2y')).toBeTruthy();
    unmount();
    const atUnmount = renders;
    act(() => void (b.value = 'B3'));
    expect(renders).toBe(atUnmount);
  });
});
