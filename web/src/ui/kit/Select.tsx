/** A select on React Aria (a button and a listbox in a popover): keyboard, typeahead, a label and an inline error. */
import type { ReactNode } from 'react';
import {
  Button,
  FieldError,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select as RACSelect,
  SelectValue,
  Text,
  type Key,
} from 'react-aria-components';
import { ChevronDown } from 'lucide-react';
import { KitProvider } from './KitProvider';
import { ICON_PROPS } from './Icon';
import './overlays.css';

export interface SelectProps {
  label: string;
  /** SelectItem children */
  children: ReactNode;
  value: Key | null;
  onChange: (value: Key) => void;
  placeholder?: string;
  description?: string;
  /** shown under the field; the field is marked invalid */
  error?: string;
  isDisabled?: boolean;
  isRequired?: boolean;
  /** submitted with a form */
  name?: string;
  className?: string;
}

export function Select({
  label,
  children,
  value,
  onChange,
  placeholder,
  description,
  error,
  isDisabled,
  isRequired,
  name,
  className,
}: SelectProps) {
  return (
    <KitProvider>
      <RACSelect
        className={['kit-field kit-select', className].filter(Boolean).join(' ')}
        selectedKey={value}
        onSelectionChange={(key) => key !== null && onChange(key)}
        placeholder={placeholder}
        isDisabled={isDisabled}
        isRequired={isRequired}
        isInvalid={!!error}
        name={name}
      >
        <Label className="kit-label">{label}</Label>
        <Button className="kit-select-button">
          <SelectValue className="kit-select-value" />
          <ChevronDown {...ICON_PROPS} size={16} />
        </Button>
        {description ? (
          <Text slot="description" className="kit-description">
            {description}
          </Text>
        ) : null}
        <FieldError className="kit-error">{error}</FieldError>
        <Popover className="kit-popover kit-listbox-popover">
          <ListBox className="kit-listbox">{children}</ListBox>
        </Popover>
      </RACSelect>
    </KitProvider>
  );
}

export function SelectItem({ id, children, isDisabled }: { id: Key; children: string; isDisabled?: boolean }) {
  return (
    <ListBoxItem id={id} textValue={children} isDisabled={isDisabled} className="kit-option">
      {children}
    </ListBoxItem>
  );
}
