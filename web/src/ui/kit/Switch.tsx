import { useId, type ButtonHTMLAttributes, type ReactNode } from 'react';

export interface SwitchProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onChange' | 'role'> {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/**
 * An on/off setting that applies at once (a checkbox is for choices sent with a form). The label
 * names the switch and, as a button is labelable, clicking it toggles too.
 */
export function Switch({ label, checked, onChange, className, id, ...rest }: SwitchProps) {
  const auto = useId();
  const switchId = id ?? auto;
  return (
    <div className={['switch', className].filter(Boolean).join(' ')}>
      <button
        id={switchId}
        type="button"
        role="switch"
        aria-checked={checked}
        className="switch-track"
        onClick={() => onChange(!checked)}
        {...rest}
      >
        <span className="switch-thumb" aria-hidden="true" />
      </button>
      <label htmlFor={switchId}>{label}</label>
    </div>
  );
}
