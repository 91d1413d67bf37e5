import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange'> {
  label: ReactNode;
  /** a line under the label, tied to the box for screen readers */
  hint?: ReactNode;
  onChange?: (checked: boolean) => void;
  /** the input (e.g. to set `indeterminate` on a "select all" box) */
  ref?: Ref<HTMLInputElement>;
}

/** A native checkbox with its label (Space toggles it, the label is clickable). */
export function Checkbox({ label, hint, onChange, className, id, ...rest }: CheckboxProps) {
  const auto = useId();
  const inputId = id ?? auto;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div className={['check', className].filter(Boolean).join(' ')}>
      <input
        id={inputId}
        type="checkbox"
        aria-describedby={hintId}
        onChange={(e) => onChange?.(e.target.checked)}
        {...rest}
      />
      <label htmlFor={inputId}>
        {label}
        {hint ? (
          <small id={hintId} className="check-hint">
            {hint}
          </small>
        ) : null}
      </label>
    </div>
  );
}
