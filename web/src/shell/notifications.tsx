import { NOTIFICATION_MS } from '@web/config';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from './icons';
import { type Notification, type Shown, withNotice } from './notification-queue';

/**
 * Notifications at the top of the page (spec §8): each closes by itself after 10 s or with its close button; a newer
 * one replaces the notices it makes stale (see `withNotice`), and leaving the screen closes them all, so none lingers
 * over the next screen's title.
 */

export type { Notification, NotificationKind } from './notification-queue';

type Notify = (notification: Notification) => void;

const NAVIGATION_GRACE_MS = 1_000;

const NotifyContext = createContext<Notify | null>(null);

export function NotificationProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const raised = useRef(new Map<number, number>());

  const close = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    raised.current.delete(id);
    setShown((list) => list.filter((item) => item.id !== id));
  }, []);

  const notify = useCallback<Notify>(
    (notification) => {
      const id = nextId.current++;
      raised.current.set(id, Date.now());
      setShown((list) => withNotice(list, { ...notification, id }));
      timers.current.set(
        id,
        setTimeout(() => close(id), NOTIFICATION_MS),
      );
    },
    [close],
  );

  useEffect(() => {
    const pending = timers.current;
    // The console routes by the URL's hash: a new hash is a new screen. A notice raised with the navigation (a
    // "created" that opens the new record) belongs to the new screen and stays.
    const closeEarlier = () => {
      const before = Date.now() - NAVIGATION_GRACE_MS;
      for (const [id, at] of raised.current) if (at < before) close(id);
    };
    window.addEventListener('hashchange', closeEarlier);
    return () => {
      window.removeEventListener('hashchange', closeEarlier);
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, [close]);

  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <NotificationList shown={shown} close={close} />
    </NotifyContext.Provider>
  );
}

function NotificationList({ shown, close }: { shown: Shown[]; close: (id: number) => void }) {
  const { t } = useTranslation('common');
  return (
    <section className="notifications" aria-label={t('notifications.region')}>
      {shown.map((item) => (
        <div
          key={item.id}
          className={`notification notification-${item.kind}`}
          role={item.kind === 'error' ? 'alert' : 'status'}
        >
          <span className="notification-message">{item.message}</span>
          <button
            type="button"
            className="notification-close"
            aria-label={t('notifications.close')}
            onClick={() => close(item.id)}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
    </section>
  );
}

export function useNotify(): Notify {
  const notify = useContext(NotifyContext);
  if (!notify) throw new Error('useNotify() outside <NotificationProvider>');
  return notify;
}
