/**
 * Menus on React Aria (keyboard, typeahead, submenus, focus): a trigger and its menu in a popover.
 * One dismissal and focus model with Popover and Dialog: Escape closes the topmost, a press
 * outside closes, focus returns to the trigger; the spec's dropdown rule through dropdowns.ts.
 *
 *   <MenuTrigger label="Account" trigger={<button type="button">Ada</button>}>
 *     <MenuItem href="/settings/profile">Profile</MenuItem>
 *     <MenuSeparator />
 *     <MenuItem danger onAction={signOut} icon={<LogOut />} shortcut="⌘Q">Sign out</MenuItem>
 *   </MenuTrigger>
 */
import type { ComponentProps, ReactNode } from 'react';
import {
  Header,
  Menu as RACMenu,
  MenuItem as RACMenuItem,
  MenuSection as RACMenuSection,
  MenuTrigger as RACMenuTrigger,
  Popover as RACPopover,
  Pressable,
  Separator,
  SubmenuTrigger,
  type Key,
  type MenuItemProps as RACMenuItemProps,
  type Selection,
} from 'react-aria-components';
import { Check, ChevronRight } from 'lucide-react';
import { DropdownParent, useDropdownState } from './dropdowns';
import { KitProvider } from './KitProvider';
import { ICON_PROPS } from './Icon';
import './overlays.css';

export type Placement = 'bottom start' | 'bottom end' | 'top start' | 'top end' | 'right top' | 'left top';

export interface MenuTriggerProps {
  /** the button that opens the menu: a <button> element (React Aria adds its press and aria props) */
  trigger: ComponentProps<typeof Pressable>['children'];
  /** the menu's accessible name */
  label: string;
  /** MenuItem, MenuSeparator, MenuSection, Submenu */
  children: ReactNode;
  isOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  placement?: Placement;
  /** checkable items: 'single' or 'multiple', with the checked ids */
  selectionMode?: 'single' | 'multiple';
  selectedKeys?: Iterable<Key>;
  onSelectionChange?: (keys: Set<Key>) => void;
  /** runs for an item without its own onAction */
  onAction?: (id: Key) => void;
  className?: string;
}

export function MenuTrigger({
  trigger,
  label,
  children,
  isOpen,
  onOpenChange,
  placement = 'bottom start',
  selectionMode,
  selectedKeys,
  onSelectionChange,
  onAction,
  className,
}: MenuTriggerProps) {
  const state = useDropdownState(isOpen, onOpenChange);
  return (
    <KitProvider>
      <RACMenuTrigger isOpen={state.isOpen} onOpenChange={state.setOpen}>
        <Pressable>{trigger}</Pressable>
        <RACPopover placement={placement} className="kit-popover kit-menu-popover">
          <DropdownParent value={state.node}>
            <RACMenu
              aria-label={label}
              className={['kit-menu', className].filter(Boolean).join(' ')}
              selectionMode={selectionMode}
              selectedKeys={selectedKeys}
              onSelectionChange={
                onSelectionChange ? (keys: Selection) => keys !== 'all' && onSelectionChange(keys) : undefined
              }
              onAction={onAction}
            >
              {children}
            </RACMenu>
          </DropdownParent>
        </RACPopover>
      </RACMenuTrigger>
    </KitProvider>
  );
}

export interface MenuItemProps extends Omit<RACMenuItemProps, 'children' | 'className' | 'style'> {
  children: ReactNode;
  /** a decorative icon before the text */
  icon?: ReactNode;
  /** the shortcut hint shown at the end (as the user types it, e.g. "Ctrl+E") */
  shortcut?: string;
  /** a destructive action: red */
  danger?: boolean;
  className?: string;
}

/** One item: an action (`onAction`), a link (`href`) or, in a selection menu, a checkable row. */
export function MenuItem({ children, icon, shortcut, danger, className, ...rest }: MenuItemProps) {
  const text = typeof children === 'string' ? children : undefined;
  return (
    <RACMenuItem
      textValue={text}
      {...rest}
      className={['kit-menu-item', danger ? 'kit-danger' : '', className].filter(Boolean).join(' ')}
    >
      {({ isSelected, selectionMode, hasSubmenu }) => (
        <>
          {selectionMode !== 'none' ? (
            <span className="kit-check" aria-hidden="true">
              {isSelected ? <Check {...ICON_PROPS} size={16} /> : null}
            </span>
          ) : null}
          {icon ? <span className="kit-item-icon">{icon}</span> : null}
          <span className="kit-item-label">{children}</span>
          {shortcut ? <kbd className="kit-shortcut">{shortcut}</kbd> : null}
          {hasSubmenu ? <ChevronRight {...ICON_PROPS} size={16} className="icon-svg kit-submenu-mark" /> : null}
        </>
      )}
    </RACMenuItem>
  );
}

export function MenuSeparator() {
  return <Separator className="kit-separator" />;
}

/** A titled group of items. */
export function MenuSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <RACMenuSection className="kit-menu-section">
      <Header className="kit-menu-heading">{title}</Header>
      {children}
    </RACMenuSection>
  );
}

/** An item that opens a nested menu (hover, Enter or the right arrow); it closes with its parent. */
export function Submenu({ label, icon, children }: { label: string; icon?: ReactNode; children: ReactNode }) {
  return (
    <SubmenuTrigger>
      <MenuItem icon={icon}>{label}</MenuItem>
      <RACPopover className="kit-popover kit-menu-popover" offset={-4}>
        <RACMenu aria-label={label} className="kit-menu">
          {children}
        </RACMenu>
      </RACPopover>
    </SubmenuTrigger>
  );
}
