import { useDateTime } from '@web/shell/format';
import type { ReactNode } from 'react';
import './document-timeline.css';

/**
 * A document's timeline (issue 5: who, what, when): each event of its history, oldest first — when it happened (and
 * who did it, when the words do not say), what happened in the reader's words, and any detail below. The screens
 * put their events into words.
 */
export function DocumentTimeline<Item extends { at: string }>({
  label,
  items,
  describe,
  by,
  details,
  minor,
}: {
  /** The list's accessible name. */
  label: string;
  items: readonly Item[];
  describe(item: Item): ReactNode;
  /** The person's name, for events whose words do not name them. */
  by?(item: Item): string | null;
  details?(item: Item): ReactNode;
  /** Shown quieter (a transfer's stock steps). */
  minor?(item: Item): boolean;
}) {
  const when = useDateTime();
  return (
    <ol className="document-timeline" aria-label={label}>
      {items.map((item, index) => {
        const person = by?.(item);
        return (
          <li
            // Events never move or vanish: their place in the history is their key.
            // biome-ignore lint/suspicious/noArrayIndexKey: the history is append-only
            key={index}
            className={`document-timeline-item ${minor?.(item) ? 'document-timeline-minor' : ''}`}
          >
            <span className="document-timeline-meta muted">
              {person ? `${person} · ` : ''}
              <time dateTime={item.at}>{when(item.at)}</time>
            </span>
            <span>{describe(item)}</span>
            {details?.(item)}
          </li>
        );
      })}
    </ol>
  );
}
