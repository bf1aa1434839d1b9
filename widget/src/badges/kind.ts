/** What the widget knows of one badge kind (one file a kind in this folder; index.tsx maps every kind to its own). */
import type { FunctionComponent } from 'preact';
import type { Badge, BadgeOf, BadgeType } from '../../../shared/types.js';
import type { Ctx } from '../ui/ctx.js';

/** A badge's props: `last` says whether its message is the conversation's last (quick replies show only then). */
export interface BadgeProps<B extends Badge = Badge> {
  badge: B;
  ctx: Ctx;
  last: boolean;
}

/** One kind: how it is drawn, its words in the transcript file, and what sets it apart. */
export interface Renderer<B extends Badge> {
  View: FunctionComponent<BadgeProps<B>>;
  /** What the visitor read, as plain text (the transcript file). */
  text: (badge: B) => string;
  /** Its own CSS, one rule a line (the chat's stylesheet, or the parts chunk's for a kind drawn from there). */
  CSS?: string;
  /** `false`: never itself the answer thumbs vote on (a file after the answer's text: votable.ts). */
  answer?: false;
}

/** Every kind's renderer: a kind missing here fails to compile. */
export type Renderers = { [K in BadgeType]: Renderer<BadgeOf<K>> };
