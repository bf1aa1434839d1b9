/** The contact address check of the widget's forms (the pre-chat form, the away-state form). */
import { hasDottedDomain } from '../../shared/email.js';

/**
 * True when the address in `box` (an `<input type="email">`) passes the BFF's rule: the browser's
 * own type=email check (the HTML standard's rule, which the BFF applies through valibot's
 * `rfcEmail`) and a dot in the domain. An empty box passes the first half only, so it fails here.
 */
export function addressOk(box: HTMLInputElement | null): boolean {
  const address = box?.value.trim() ?? '';
  return !!box && address !== '' && box.checkValidity() && hasDottedDomain(address);
}
