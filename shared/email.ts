/**
 * The contact address rule's second half, shared by the BFF (shared/bodies.ts, after valibot's
 * `rfcEmail`) and the widget's forms (after the browser's own type=email check, the same HTML
 * standard rule): the domain has a dot, so the address can be reached from the internet.
 */
export function hasDottedDomain(address: string): boolean {
  return address.slice(address.lastIndexOf('@') + 1).includes('.');
}
