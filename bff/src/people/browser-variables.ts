/**
 * The user variables the visitor's browser may see on the stream, so no secret the service holds leaks to it: those named in
 * USER_VARIABLES the contact and CSAT values the visitor gave; everything else the service holds stays there.
 */
const CSAT_VARIABLES = ['csat', 'csat_comment'];

const lists = new WeakMap<object, readonly string[]>();

export function browserVariablesOf(config: { userVariables: readonly string[]; contactVariables: { email: string; name: string } }): readonly string[] {
  let list = lists.get(config);
  if (!list) {
    list = [...new Set([...config.userVariables, config.contactVariables.email, config.contactVariables.name, ...CSAT_VARIABLES])];
    lists.set(config, list);
  }
  return list;
}
