import { useEffect, useState } from 'react';

/** How long typing must pause before a search goes out. */
export const SEARCH_DELAY_MS = 250;

/** `value` once it has stayed the same for `delay` ms: what a search box sends while the user types. */
export function useDebounced<T>(value: T, delay = SEARCH_DELAY_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}
