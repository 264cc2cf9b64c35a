/** The notices on screen, and what a newer one does to them (kept apart from React so that it can be tested alone). */

export type NotificationKind = 'success' | 'error' | 'info';

export interface Notification {
  kind: NotificationKind;
  message: string;
}

export interface Shown extends Notification {
  id: number;
}

/** At most this many notices at once: more would push the page under them. */
export const MAX_SHOWN = 3;

/**
 * The notices after `next` arrives: it replaces what it makes stale (every earlier success or info, which a newer
 * result supersedes, and an earlier copy of itself); earlier errors stay, each may name its own failure, and the
 * newer one stacks below them, the oldest leaving first.
 */
export function withNotice(shown: readonly Shown[], next: Shown): Shown[] {
  const kept = shown.filter((item) => item.kind === 'error' && item.message !== next.message);
  return [...kept, next].slice(-MAX_SHOWN);
}
