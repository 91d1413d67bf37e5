/**
 * A trigger and a panel beside it (colour pickers, share panels, the board's menus): a dialog in a
 * React Aria popover. The page stays as it is (no backdrop); a press outside closes the panel and is
 * not passed on, Escape closes the topmost, focus moves into the panel and returns to the trigger.
 * The spec's dropdown rule through dropdowns.ts.
 */
import type { ComponentProps, ReactNode } from 'react';
import { Dialog, DialogTrigger, Popover as RACPopover, Pressable } from 'react-aria-components';
import { DropdownParent, useDropdownState } from './dropdowns';
import { KitProvider } from './KitProvider';
import type { Placement } from './Menu';
import './overlays.css';

export interface PopoverProps {
  /** the button that opens it: a <button> element (React Aria adds its press and aria props) */
  trigger: ComponentProps<typeof Pressable>['children'];
  /** the panel's accessible name */
  label: string;
  /** the panel; as a function it gets `close` (e.g. after a pick) */
  children: ReactNode | ((close: () => void) => ReactNode);
  isOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  placement?: Placement;
  /** on the panel (the popover element) */
  className?: string;
}

export function Popover({
  trigger,
  label,
  children,
  isOpen,
  onOpenChange,
  placement = 'bottom start',
  className,
}: PopoverProps) {
  const state = useDropdownState(isOpen, onOpenChange);
  return (
    <KitProvider>
      <DialogTrigger isOpen={state.isOpen} onOpenChange={state.setOpen}>
        <Pressable>{trigger}</Pressable>
        <RACPopover placement={placement} className={['kit-popover', className].filter(Boolean).join(' ')}>
          <Dialog aria-label={label} className="kit-popover-dialog">
            {({ close }) => (
              <DropdownParent value={state.node}>
                {typeof children === 'function' ? children(close) : children}
              </DropdownParent>
            )}
          </Dialog>
        </RACPopover>
      </DialogTrigger>
    </KitProvider>
  );
}
