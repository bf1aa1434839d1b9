/** A `Content-Type`'s media type, lower-cased, its parameters (after `;`) aside; '' when there is none. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}
