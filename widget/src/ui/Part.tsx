/** `Part`: a component of the parts chunk (parts-loader.ts), drawn once the chunk has come. */
import type { FunctionComponent } from 'preact';
import type { Ctx } from './ctx.js';
import { failed, fetchParts, parts, type Parts } from '../parts-loader.js';

export { fetchParts, loadedParts, loadParts } from '../parts-loader.js';

type PartName = { [K in keyof Parts]: Parts[K] extends FunctionComponent<any> ? K : never }[keyof Parts];

/** A component of the parts chunk: fetched when first drawn, drawn once it has come; if it cannot come, a button tries again. */
export function Part<K extends PartName>({ name, props, ctx }: { name: K; props: Parameters<Parts[K]>[0]; ctx: Ctx }) {
  const C = parts.value?.[name] as FunctionComponent<object> | undefined;
  if (C) return <C {...(props as object)} />;
  if (!failed.value) {
    fetchParts();
    return null;
  }
  return (
    <button type="button" class="pill" onClick={fetchParts}>
      {ctx.strings.partFailed}
    </button>
  );
}
