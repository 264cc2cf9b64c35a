import { namespaceOf } from '@web/i18n/namespaces';
import { type ReactNode, useEffect, useId } from 'react';
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

/** The heading of a screen: its title, a line saying what it is for, and the screen's main actions. */
export function PageHeader({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: string;
  children?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div>
        <h1 className="page-title">{title}</h1>
        {intro && <p className="muted">{intro}</p>}
      </div>
      {children}
    </div>
  );
}

/**
 * A list's search box, in the toolbar above it; `children` are the toolbar's other controls. A `hint` (say, how many
 * characters a search needs) shows after the box and describes it.
 */
export function SearchToolbar(props: {
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
  hint?: string;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="toolbar">
      <label htmlFor={id} className="visually-hidden">
        {props.label}
      </label>
      <input
        id={id}
        type="search"
        className="input toolbar-search"
        placeholder={props.placeholder}
        value={props.value}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.hint && (
        <span id={`${id}-hint`} className="muted field-hint">
          {props.hint}
        </span>
      )}
      {props.children}
    </div>
  );
}
