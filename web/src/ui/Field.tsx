import { useId } from 'react';

interface FieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  required?: boolean;
  hint?: string;
}

/** A labelled input (the label is always visible and tied to the input). */
export function Field({ label, name, value, onChange, type = 'text', autoComplete, required, hint }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        autoComplete={autoComplete}
        required={required}
        aria-describedby={hintId}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint ? (
        <small id={hintId} className="muted">
          {hint}
        </small>
      ) : null}
    </div>
  );
}
