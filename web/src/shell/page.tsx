import { namespaceOf } from '@web/routes/modules';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export const PRODUCT_NAME = 'Kedai';

/** Sets the page title `Kedai - <route name>` (spec §2), following the language. */
export function usePageTitle(titleKey: string) {
  const { t, i18n } = useTranslation(namespaceOf(titleKey));
  const name = t(titleKey);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the title follows the language too
  useEffect(() => {
    document.title = `${PRODUCT_NAME} - ${name}`;
  }, [name, i18n.language]);
}

export function Page({ titleKey, children }: { titleKey: string; children: ReactNode }) {
  usePageTitle(titleKey);
  return children;
}
