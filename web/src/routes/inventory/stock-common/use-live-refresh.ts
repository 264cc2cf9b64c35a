import { useLiveView } from '@web/api/live';
import { useCallback, useEffect, useRef } from 'react';

/** Notices closer together than this are folded into one refresh (a bulk upload sends many). */
export const REFRESH_EVERY_MS = 250;

/**
 * Refreshes a screen on the live view's notices: at once for the first one, then at most once per
 * REFRESH_EVERY_MS while notices keep coming (the last one always leads to a refresh). A reconnect, which may have
 * missed notices, refreshes too.
 */
export function useLiveRefresh(view: string, refresh: () => void) {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  }, [refresh]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onChange = useCallback(() => {
    if (timer.current) return;
    const wait = last.current + REFRESH_EVERY_MS - Date.now();
    if (wait <= 0) {
      last.current = Date.now();
      latest.current();
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = undefined;
      last.current = Date.now();
      latest.current();
    }, wait);
  }, []);
  useLiveView(view, onChange);
}
