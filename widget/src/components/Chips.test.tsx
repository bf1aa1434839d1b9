import { act, cleanup, fireEvent, screen } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pickStrings } from '../i18n.js';
import de from '../locales/de.js';
import { FakeXHR, flush, freshBrowserEachTest, mockXHR, mountApp, PUBLIC_CONFIG, seedSession } from '../../test/support.js';
import { fileSize } from '../i18n.js';
import { DOC, FILE } from '../ui/part-icons.js';

const MB = 1024 * 1024;
const UPLOADS = { ...PUBLIC_CONFIG, features: { ...PUBLIC_CONFIG.features, upload: true }, limits: { textMaxLength: 4000, maxUploadBytes: 10 * MB, maxUploadFiles: 5 } };

async function mount(options: Parameters<typeof mountApp>[1] = {}) {
  seedSession();
  await mountApp({}, options, UPLOADS);
  fireEvent.click(screen.getByRole('button', { name: /^(Open chat|Chat öffnen)$/ }));
}

/** A file of `size` bytes without allocating them. */
function file(name: string, size = 5, type = 'text/plain'): File {
  const f = new File(['hello'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

async function pick(...files: File[]) {
  fireEvent.change(document.querySelector('form.composer input[type=file]')!, { target: { files } });
  // The uploads come with the parts chunk: the chips after it, their thumbnails a step later.
  await act(flush);
  await act(flush);
}
const list = () => screen.queryByRole('list', { name: 'Files to send' });
const chip = (name: string) => screen.getByRole('button', { name: 'Remove ' + name }).closest('li')!;

freshBrowserEachTest(() => {
  cleanup();
  vi.restoreAllMocks();
});
beforeEach(() => mockXHR());

describe('chosen files as chips', () => {
  it('shows each file with its name and its size in the visitor’s units; nothing is sent yet', async () => {
    await mount();
    expect(list()).toBeNull();
    await pick(file('notes.txt', 5), file('report.pdf', 2048), file('video.mov', 1.5 * MB));
    expect(Array.from(list()!.querySelectorAll('li')).map((li) => [li.querySelector('.name')!.textContent, li.querySelector('.size')!.textContent])).toEqual([
      ['notes.txt', '5 bytes'],
      ['report.pdf', '2 kB'],
      ['video.mov', '1.5 MB'],
    ]);
    expect(FakeXHR.all).toHaveLength(0);
    expect(screen.getByRole('log').querySelector('.msg.user')).toBeNull();
  });

  it('formats sizes with the locale’s numbers and unit names', () => {
    expect(fileSize(1.5 * MB, 'de')).toBe('1,5 MB');
    expect(fileSize(5, 'fr').replace(/\s/, ' ')).toBe('5 octets'); // French puts a no-break space
    expect(fileSize(3 * 1024 * MB, 'en')).toBe('3 GB');
  });

  it('draws a thumbnail of an image (the middle square) and shows the document icon (not a download) for other files', async () => {
    const bitmap = { width: 300, height: 100, close: vi.fn() };
    const decode = vi.fn(async () => bitmap);
    vi.stubGlobal('createImageBitmap', decode);
    await mount();
    // After mounting: the widget reads the page's colour scheme through a canvas of its own.
    const drawImage = vi.fn();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({ drawImage } as unknown as CanvasRenderingContext2D);
    const photo = file('photo.png', 100, 'image/png');
    await pick(photo, file('notes.txt'));

    expect(decode).toHaveBeenCalledOnce();
    expect(decode).toHaveBeenCalledWith(photo);
    expect(drawImage).toHaveBeenCalledWith(bitmap, 100, 0, 100, 100, 0, 0, 64, 64);
    expect(bitmap.close).toHaveBeenCalled();
    const canvas = chip('photo.png').querySelector('canvas')!;
    expect(canvas.hidden).toBe(false);
    expect(chip('photo.png').querySelector(':scope > svg')).toBeNull();
    expect(chip('notes.txt').querySelector('canvas')!.hidden).toBe(true);
    expect(chip('notes.txt').querySelector(':scope > svg path')!.getAttribute('d')).toBe(DOC);
    expect(DOC).not.toBe(FILE);
  });

  it('keeps the file icon for an image that does not decode', async () => {
    vi.stubGlobal('createImageBitmap', vi.fn(async () => Promise.reject(new DOMException('bad', 'InvalidStateError'))));
    await mount();
    await pick(file('broken.png', 100, 'image/png'));
    expect(chip('broken.png').querySelector('canvas')!.hidden).toBe(true);
    expect(chip('broken.png').querySelector(':scope > svg')).toBeTruthy();
  });
});

describe('removing a chip', () => {
  it('by its named button; focus goes to the next chip, then the one before, then the message box', async () => {
    await mount();
    await pick(file('a.txt'), file('b.txt'), file('c.txt'));
    const remove = (name: string) => {
      const button = screen.getByRole('button', { name: 'Remove ' + name });
      button.focus();
      fireEvent.click(button);
    };
    remove('b.txt');
    await act(flush);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove c.txt' }));
    remove('c.txt');
    await act(flush);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove a.txt' }));
    remove('a.txt');
    await act(flush);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
    expect(list()).toBeNull();
  });

  it('leaves the others to be sent, with the text typed', async () => {
    await mount();
    fireEvent.input(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'see these' } });
    await pick(file('a.txt'), file('b.txt'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove a.txt' }));
    await act(flush);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await act(flush);
    expect(FakeXHR.last.fields).toMatchObject({ files: ['b.txt'], text: ['see these\n📎 b.txt'] });
  });

  it('is named in the widget language, and the page can override the strings', async () => {
    await mount({ strings: pickStrings(de, { removeFile: 'Weg mit {name}' }), locale: 'de-DE' });
    await pick(file('bericht.pdf', 2.5 * MB));
    expect(screen.getByRole('list', { name: 'Zu sendende Dateien' }).querySelector('.size')!.textContent).toBe('2,5 MB');
    expect(screen.getByRole('button', { name: 'Weg mit bericht.pdf' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Senden' }));
    await act(flush);
    expect(screen.getByRole('progressbar', { name: 'bericht.pdf wird hochgeladen' })).toBeTruthy();
  });
});
