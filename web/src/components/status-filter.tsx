import { useId } from 'react';

/** A list's status picker, in the toolbar beside its search: every status (''), or one. */
export function StatusFilter({
  label,
  allLabel,
  value,
  onChange,
  options,
  className = '',
}: {
  /** The accessible name (the picker shows no label). */
  label: string;
  allLabel: string;
  value: string;
  onChange(value: string): void;
  options: readonly { value: string; label: string }[];
  className?: string;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <select
        id={id}
        className={`input ${className}`.trim()}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </>
  );
}
