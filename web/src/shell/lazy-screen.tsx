import { SCREEN_LOAD_TIMEOUT_MS } from '@web/config';
import { type ComponentType, lazy } from 'react';

/**
 * A screen loaded on demand. A script that fails or takes longer than the timeout of spec §9 is a load error,
 * which the screen boundary shows with a way to reload.
 */
export class ScreenLoadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'ScreenLoadError';
  }
}

export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(
    () =>
      new Promise<{ default: ComponentType<P> }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ScreenLoadError('timeout')), SCREEN_LOAD_TIMEOUT_MS);
        load().then(
          (module) => {
            clearTimeout(timer);
            resolve(module);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(new ScreenLoadError(error));
          },
        );
      }),
  );
}
