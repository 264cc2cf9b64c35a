import { type ReactNode, useId } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * Tabs of one screen (categories | brands | units…): the chosen tab is in the address (`?tab=`), so a reload or a
 * shared link opens the same one. Arrow keys move between the tabs, as the ARIA tabs pattern expects.
 */

export interface TabDef<Id extends string> {
  id: Id;
  label: string;
}

export function useTab<Id extends string>(ids: readonly Id[]): [Id, (id: Id) => void] {
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const current = ids.find((id) => id === asked) ?? ids[0]!;
  const choose = (id: Id) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (id === ids[0]) next.delete('tab');
        else next.set('tab', id);
        return next;
      },
      { replace: true },
    );
  return [current, choose];
}

export function Tabs<Id extends string>({
  label,
  tabs,
  current,
  onChange,
  children,
}: {
  /** The tab list's accessible name. */
  label: string;
  tabs: readonly TabDef<Id>[];
  current: Id;
  onChange(id: Id): void;
  /** The current tab's panel. */
  children: ReactNode;
}) {
  const base = useId();
  const tabId = (id: Id) => `${base}-tab-${id}`;
  const move = (from: number, step: number) => {
    const next = tabs[(from + step + tabs.length) % tabs.length]!;
    onChange(next.id);
    document.getElementById(tabId(next.id))?.focus();
  };
  return (
    <>
      <div className="tab-list" role="tablist" aria-label={label}>
        {tabs.map((tab, index) => (
          <button
            key={tab.id}
            id={tabId(tab.id)}
            type="button"
            role="tab"
            className="tab"
            aria-selected={tab.id === current}
            aria-controls={`${base}-panel`}
            tabIndex={tab.id === current ? 0 : -1}
            onClick={() => onChange(tab.id)}
            onKeyDown={(event) => {
              if (event.key === 'ArrowRight') move(index, 1);
              else if (event.key === 'ArrowLeft') move(index, -1);
            }}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div id={`${base}-panel`} role="tabpanel" aria-labelledby={tabId(current)} className="tab-panel">
        {children}
      </div>
    </>
  );
}
