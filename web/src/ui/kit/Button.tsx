import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactElement, ReactNode } from 'react';
import { Tooltip } from '../Tooltip';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'lg';

interface Look {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** an icon before the text (decorative: the text names the button) */
  icon?: ReactNode;
}

export interface ButtonProps extends Look, ButtonHTMLAttributes<HTMLButtonElement> {
  /** shows a spinner; the button is busy and cannot be pressed again */
  loading?: boolean;
}

/** The button's classes, for a router link that must look like a button (ButtonLink takes an href). */
export const buttonClass = ({ variant = 'secondary', size = 'md' }: Omit<Look, 'icon'> = {}, extra?: string) =>
  ['btn', `btn-${variant}`, `btn-${size}`, extra].filter(Boolean).join(' ');

/** The app's button. `type` defaults to "button" so a button in a form submits only when asked to. */
export function Button({
  variant,
  size,
  icon,
  loading = false,
  disabled,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClass({ variant, size }, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <span className="btn-spinner" aria-hidden="true" /> : icon}
      {children}
    </button>
  );
}

export interface ButtonLinkProps extends Look, AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
}

/** A link that looks like a button (navigation, not an action). */
export function ButtonLink({ variant, size, icon, className, children, ...rest }: ButtonLinkProps) {
  return (
    <a className={buttonClass({ variant, size }, className)} {...rest}>
      {icon}
      {children}
    </a>
  );
}

export interface IconButtonProps extends Omit<ButtonProps, 'children' | 'icon' | 'aria-label'> {
  /** the button's accessible name, also shown as its tooltip (spec §2: after 500 ms, gone 50 ms after) */
  label: string;
  icon: ReactElement;
  /** no tooltip while the button's own menu or flyout is open */
  tooltipHidden?: boolean;
}

/** A button showing only an icon: named by `label`, which its tooltip shows. */
export function IconButton({ label, icon, tooltipHidden, variant = 'ghost', className, ...rest }: IconButtonProps) {
  return (
    <Tooltip text={label} hidden={tooltipHidden}>
      <Button
        variant={variant}
        className={['btn-icon', className].filter(Boolean).join(' ')}
        aria-label={label}
        icon={icon}
        {...rest}
      />
    </Tooltip>
  );
}
