import { act, cleanup, fireEvent, screen } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeXHR, flush, freshBrowserEachTest, mockXHR, mountApp, PUBLIC_CONFIG, seedSession } from '../../test/support.js';

const UPLOADS = { ...PUBLIC_CONFIG, features: { ...PUBLIC_CONFIG.features, upload: true }, limits: { textMaxLength: 4000, maxUploadBytes: 1024 * 1024, maxUploadFiles: 5 } };
const file = (name: string) => new File(['hello'], name, { type: 'image/png' });

async function mount(config: object = UPLOADS) {
  seedSession();
  await mountApp({}, {}, config);
  fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
}

/** A drag event carrying `files` (happy-dom has no DataTransfer of files to build one from). */
function dragged(type: string, files: File[]) {
  const e = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(e, 'dataTransfer', { value: { types: ['Files'], files } });
  return e;
}

freshBrowserEachTest(cleanup);
beforeEach(() => mockXHR());

describe('files dropped on the panel or pasted into the message box', () => {
  it('a drop anywhere on the panel adds the files as chips, like the attach button', async () => {
    await mount();
    const over = dragged('dragover', []);
    screen.getByRole('log').dispatchEvent(over);
    expect(over.defaultPrevented).toBe(true); // the browser would otherwise open the file itself
    const drop = dragged('drop', [file('shot.png')]);
    screen.getByRole('dialog').dispatchEvent(drop);
    await act(flush);
    expect(drop.defaultPrevented).toBe(true);
    expect(screen.getByRole('button', { name: 'Remove shot.png' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await act(flush);
    expect(FakeXHR.all).toHaveLength(1);
    expect(FakeXHR.last.fields.files).toEqual(['shot.png']);
  });

  it('files dragged over the panel show where to drop them, until they leave it or are dropped', async () => {
    await mount();
    const panel = screen.getByRole('dialog');
    const target = () => panel.querySelector('.drop-target');
    expect(target()).toBeNull();
    await act(() => void screen.getByRole('log').dispatchEvent(dragged('dragover', [])));
    expect(target()!.textContent).toBe('Drop files to add them');
    // Moving from one part of the panel to another is no leaving.
    const leaveInside = dragged('dragleave', []);
    Object.defineProperty(leaveInside, 'relatedTarget', { value: screen.getByRole('textbox', { name: 'Message' }) });
    await act(() => void screen.getByRole('log').dispatchEvent(leaveInside));
    expect(target()).toBeTruthy();
    // Out of the window: relatedTarget is null.
    await act(() => void panel.dispatchEvent(dragged('dragleave', [])));
    expect(target()).toBeNull();
    await act(() => void panel.dispatchEvent(dragged('dragover', [])));
    expect(target()).toBeTruthy();
    await act(() => void panel.dispatchEvent(dragged('drop', [file('shot.png')])));
    await act(flush);
    expect(target()).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove shot.png' })).toBeTruthy();
  });

  it('a pasted file is attached; pasted text stays text', async () => {
    await mount();
    const box = screen.getByRole('textbox', { name: 'Message' });
    const paste = (files: File[]) => {
      const e = new Event('paste', { bubbles: true, cancelable: true });
      Object.defineProperty(e, 'clipboardData', { value: { files } });
      box.dispatchEvent(e);
      return e;
    };
    expect(paste([]).defaultPrevented).toBe(false);
    expect(FakeXHR.all).toHaveLength(0);
    expect(paste([file('clip.png')]).defaultPrevented).toBe(true);
    await act(flush);
    expect(screen.getByRole('list', { name: 'Files to send' }).textContent).toContain('clip.png');
    fireEvent.keyDown(box, { key: 'Enter' });
    await act(flush);
    expect(FakeXHR.last.fields.files).toEqual(['clip.png']);
  });

  it('nothing is taken when uploads are off: the drop is not accepted', async () => {
    await mount(PUBLIC_CONFIG);
    const over = dragged('dragover', []);
    screen.getByRole('dialog').dispatchEvent(over);
    expect(over.defaultPrevented).toBe(false);
    await act(flush);
    expect(screen.queryByText('Drop files to add them')).toBeNull();
    screen.getByRole('dialog').dispatchEvent(dragged('drop', [file('shot.png')]));
    await act(flush);
    expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull();
    expect(FakeXHR.all).toHaveLength(0);
  });
});
