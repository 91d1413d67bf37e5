/** Tabs on React Aria: arrow keys move between tabs (automatic activation), Home/End, one tab stop. */
import type { ReactNode } from 'react';
import {
  Tab as RACTab,
  TabList as RACTabList,
  TabPanel as RACTabPanel,
  Tabs as RACTabs,
  type Key,
} from 'react-aria-components';
import { KitProvider } from './KitProvider';
import './overlays.css';

export interface TabsProps {
  children: ReactNode;
  selectedKey?: Key;
  defaultSelectedKey?: Key;
  onSelectionChange?: (key: Key) => void;
  className?: string;
}

export function Tabs({ children, className, ...rest }: TabsProps) {
  return (
    <KitProvider>
      <RACTabs {...rest} className={['kit-tabs', className].filter(Boolean).join(' ')}>
        {children}
      </RACTabs>
    </KitProvider>
  );
}

export function TabList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <RACTabList aria-label={label} className="kit-tablist">
      {children}
    </RACTabList>
  );
}

export function Tab({ id, children, isDisabled }: { id: Key; children: ReactNode; isDisabled?: boolean }) {
  return (
    <RACTab id={id} isDisabled={isDisabled} className="kit-tab">
      {children}
    </RACTab>
  );
}

export function TabPanel({ id, children }: { id: Key; children: ReactNode }) {
  return (
    <RACTabPanel id={id} className="kit-tabpanel">
      {children}
    </RACTabPanel>
  );
}
