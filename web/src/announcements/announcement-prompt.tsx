import { usePromptAnnouncements } from '@web/api/announcements';
import { useSession } from '@web/auth/session';
import { lazy, Suspense, useEffect, useState } from 'react';

/**
 * After sign-in, a seller's user is shown each announcement flagged for prompting that they have not answered for
 * good nor set aside, highest priority first, one dialog at a time. Once through the list, the tab does not prompt
 * again until the next sign-in (sessionStorage is cleared when signing in and out).
 */

const AnnouncementDialog = lazy(() =>
  import('./announcement-dialog').then((module) => ({ default: module.AnnouncementDialog })),
);

const PROMPTED_KEY = 'announcements-prompted';

export function AnnouncementPrompt() {
  const { isSeller, token } = useSession();
  const [finished, setFinished] = useState(() => sessionStorage.getItem(PROMPTED_KEY) === '1');
  const [index, setIndex] = useState(0);
  const prompt = usePromptAnnouncements(isSeller && token !== null && !finished);
  const list = prompt.data;

  useEffect(() => {
    if (list && index >= list.length) {
      sessionStorage.setItem(PROMPTED_KEY, '1');
      setFinished(true);
    }
  }, [list, index]);

  const current = list?.[index];
  if (!isSeller || finished || !list || !current) return null;
  return (
    <Suspense fallback={null}>
      <AnnouncementDialog
        key={current.id}
        announcement={current}
        position={{ index, total: list.length }}
        onDone={() => setIndex((at) => at + 1)}
      />
    </Suspense>
  );
}
