import type { PushRuleBody } from '@web/api/stock-push';
import { TextField } from '@web/shell/form';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A push rule's fields as the console edits them (text, so a half-typed number stays), and the rule they make.
 * Shared by the store and the master code allocation screens.
 */

export interface RuleText {
  percent: string;
  fixed: string;
  buffer: string;
  minimum: string;
  maximum: string;
}

export const ruleText = (rule: PushRuleBody | null): RuleText => ({
  percent: String(rule?.percent ?? 100),
  fixed: String(rule?.fixed ?? 0),
  buffer: String(rule?.buffer ?? 0),
  minimum: String(rule?.minimum ?? 0),
  maximum: rule?.maximum === null || rule?.maximum === undefined ? '' : String(rule.maximum),
});

/** The rule the text says; the server refuses what is not a valid number (NaN is sent as null and refused). */
export const ruleOf = (text: RuleText): PushRuleBody => ({
  percent: Number(text.percent),
  fixed: Number(text.fixed),
  buffer: Number(text.buffer),
  minimum: Number(text.minimum),
  maximum: text.maximum.trim() === '' ? null : Number(text.maximum),
});

const FIELDS = ['percent', 'fixed', 'buffer', 'minimum', 'maximum'] as const;

export function RuleFields({
  value,
  onChange,
  errors,
}: {
  value: RuleText;
  onChange(value: RuleText): void;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation('push');
  return (
    <div className="form-grid">
      {FIELDS.map((field) => (
        <TextField
          key={field}
          label={t(`rule.${field}`)}
          hint={t(`rule.${field}_hint`)}
          inputMode="decimal"
          value={value[field]}
          error={errors[field]}
          onChange={(event) => onChange({ ...value, [field]: event.target.value })}
        />
      ))}
    </div>
  );
}

/** A rule in a line: "50 % + 1, buffer 2, min 0, max 100". */
export function useRuleSummary() {
  const { t } = useTranslation('push');
  return useCallback(
    (rule: PushRuleBody | null) =>
      rule
        ? t('rule.summary', {
            percent: rule.percent,
            fixed: rule.fixed,
            buffer: rule.buffer,
            minimum: rule.minimum,
            maximum: rule.maximum ?? t('rule.no_maximum'),
          })
        : t('rule.show_all'),
    [t],
  );
}
