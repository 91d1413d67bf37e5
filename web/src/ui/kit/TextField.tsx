import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';

interface Common {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** help under the field, read with it by screen readers */
  hint?: ReactNode;
  /** shown under the field in the danger colour; marks the field invalid */
  error?: ReactNode;
  className?: string;
}

export type TextFieldProps = Common &
  (
    | ({ multiline?: false } & Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'className'>)
    | ({ multiline: true } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value' | 'className'>)
  );

/** A labelled text input (or textarea with `multiline`); the hint and the error are tied to it. */
export function TextField(props: TextFieldProps) {
  const auto = useId();
  const { label, hint, error, className, value, onChange } = props;
  const id = props.id ?? auto;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const wiring = {
    id,
    value,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
  };
  let control: ReactNode;
  if (props.multiline) {
    const { label: _l, hint: _h, error: _e, className: _c, value: _v, onChange: _o, multiline: _m, ...rest } = props;
    control = <textarea {...rest} {...wiring} onChange={(e) => onChange(e.target.value)} />;
  } else {
    const { label: _l, hint: _h, error: _e, className: _c, value: _v, onChange: _o, multiline: _m, ...rest } = props;
    control = <input type="text" {...rest} {...wiring} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <div className={['field', error ? 'field-invalid' : undefined, className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      {control}
      {hint ? (
        <small id={hintId} className="muted">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={errorId} className="field-error">
          {error}
        </small>
      ) : null}
    </div>
  );
}
