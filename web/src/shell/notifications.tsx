import { NOTIFICATION_MS } from '@web/config';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from './icons';

/** Notifications at the top of the page (spec §8): each closes by itself after 10 s or with its close button. */

export type NotificationKind = 'success' | 'error' | 'info';

export interface Notification {
  kind: NotificationKind;
  message: string;
}

type Notify = (notification: Notification) => void;

interface Shown extends Notification {
  id: number;
}

const NotifyContext = createContext<Notify | null>(null);

export function NotificationProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const close = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setShown((list) => list.filter((item) => item.id !== id));
  }, []);

  const notify = useCallback<Notify>(
    (notification) => {
      const id = nextId.current++;
      setShown((list) => [...list, { ...notification, id }]);
      timers.current.set(
        id,
        setTimeout(() => close(id), NOTIFICATION_MS),
      );
    },
    [close],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);

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
