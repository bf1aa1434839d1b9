import { fileTypeFromBuffer } from 'file-type';
import { mediaTypeOf } from '../../../shared/media-type.js';
import { AppError } from '../errors.js';

/**
 * What `UPLOAD_TYPES` allows by default: images, PDF, plain text and CSV, and office documents in
 * their open formats (OOXML, ODF). Left out on purpose: SVG (it carries script), HTML, archives,
 * and the old binary Office formats and macro-enabled documents.
 */
export const DEFAULT_UPLOAD_TYPES = [
  'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/heic',
  'application/pdf', 'text/plain', 'text/csv',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text', 'application/vnd.oasis.opendocument.spreadsheet', 'application/vnd.oasis.opendocument.presentation',
  '.png', '.jpg', '.jpeg', '.gif', '.webp', '.heic', '.pdf', '.txt', '.csv', '.docx', '.xlsx', '.pptx', '.odt', '.ods', '.odp',
];

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/;
const EXTENSION = /^\.[a-z0-9][a-z0-9_+-]{0,15}$/;

/** An `UPLOAD_TYPES` entry that is neither a media type (`image/png`, `image/*`) nor an extension (`.pdf`); undefined when all are. */
export function badUploadType(entries: readonly string[]): string | undefined {
  return entries.find((e) => !MEDIA_TYPE.test(e) && !EXTENSION.test(e));
}

/** The bytes a text file is judged by: enough to tell text from binary, few enough to read at once. */
const TEXT_SAMPLE_BYTES = 8192;
/** Characters no text file holds (a line break, tab and form feed are fine). */
const BINARY = /[\0-\x08\x0B\x0E-\x1F\x7F]/;

/**
 * Refuses (415 `file_type_not_accepted`) a file that `allowed` (the `UPLOAD_TYPES` entries) does not
 * take by all three of: its name's extension, the type the browser declared for it (none, or
 * `application/octet-stream`, declares nothing), and the type its bytes show. The bytes decide
 * through `file-type`'s signatures (magic numbers, and the parts of a ZIP that tell OOXML and ODF
 * apart; a well-kept table of far more formats than this list would name), and the name's extension
 * must be one of the format they show; bytes of no known format count as `text/plain` (`text/csv`
 * for a `.csv`) when they read as UTF-8 text, else they are refused. So a program renamed
 * `invoice.pdf` is refused by its bytes.
 */
export async function checkUploadType(file: File, allowed: readonly string[]): Promise<void> {
  const refuse = (why: string) => new AppError('file_type_not_accepted', `"${file.name}" is not accepted: ${why}`);
  const extension = /\.[^.]+$/.exec(file.name)?.[0]?.toLowerCase();
  if (extension === undefined || !allowed.includes(extension)) throw refuse(extension ? `files ending in ${extension} are not on the list` : 'a file name needs an extension on the list');
  const declared = mediaTypeOf(file.type);
  if (declared !== '' && declared !== 'application/octet-stream' && !typeAllowed(declared, allowed)) throw refuse(`its type ${declared} is not on the list`);
  const shown = await contentType(file, extension);
  if (shown === undefined) throw refuse('its content is of no type on the list');
  if (!typeAllowed(shown.mime, allowed)) throw refuse(`its content is ${shown.mime}`);
  if (!shown.fits) throw refuse(`its content is ${shown.mime}, not a ${extension} file`);
}

/** Extensions of one format besides the one `file-type` names it by. */
const SAME_FORMAT: Record<string, readonly string[]> = { jpg: ['.jpeg', '.jpe'], tif: ['.tiff'], heic: ['.heif'] };

/**
 * The type the file's bytes show, and whether the name's extension is one of that format's (an
 * image named .txt is refused too); undefined for bytes of no known format that are not text.
 */
async function contentType(file: File, extension: string): Promise<{ mime: string; fits: boolean } | undefined> {
  // The form is in memory already (at most MAX_UPLOAD_BYTES a file): read as bytes, not as a stream.
  const bytes = new Uint8Array(await file.arrayBuffer());
  const found = await fileTypeFromBuffer(bytes);
  if (found) return { mime: found.mime, fits: `.${found.ext}` === extension || (SAME_FORMAT[found.ext]?.includes(extension) ?? false) };
  const sample = bytes.subarray(0, TEXT_SAMPLE_BYTES);
  let text: string;
  try {
    // stream: a character cut at the sample's end is no reason to refuse
    text = new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
  } catch {
    return undefined;
  }
  if (BINARY.test(text)) return undefined;
  return { mime: extension === '.csv' ? 'text/csv' : 'text/plain', fits: true };
}

function typeAllowed(type: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => entry === type || (entry.endsWith('/*') && type.startsWith(entry.slice(0, -1))));
}
