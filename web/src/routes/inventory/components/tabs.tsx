import { AriaTabs, TabPanel } from '@web/components/grid-screen';
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
  return (
    <>
      <AriaTabs
        label={label}
        current={current}
        items={tabs}
        onChange={(id) => onChange(id as Id)}
        base={base}
      />
      <TabPanel base={base} current={current}>
        {children}
      </TabPanel>
    </>
  );
}
