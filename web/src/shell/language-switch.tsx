import { changeLanguage } from '@web/i18n';
import { isLanguage, LANGUAGES, type LanguageCode } from '@web/i18n/languages';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { GlobeIcon } from './icons';

/**
 * The language switch: the six languages, each named in its own language. `onChosen` also keeps the choice
 * elsewhere (with the signed-in user, so it follows them to their next sign-in).
 */
export function LanguageSwitch({
  className,
  onChosen,
}: {
  className?: string;
  onChosen?: (language: LanguageCode) => void;
}) {
  const { t, i18n } = useTranslation('common');
  const id = useId();
  return (
    <div className={`language-switch ${className ?? ''}`}>
      <label htmlFor={id} className="visually-hidden">
        {t('language.label')}
      </label>
      <span className="language-icon">
        <GlobeIcon />
      </span>
      <select
        id={id}
        data-testid="language-switch"
        value={i18n.language}
        onChange={(event) => {
          const language = event.target.value;
          if (!isLanguage(language)) return;
          void changeLanguage(language);
          onChosen?.(language);
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
    </div>
  );
}
