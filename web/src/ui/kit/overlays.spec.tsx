/// <reference types="jest" />
import { useState } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../i18n/i18n';
import { MenuItem, MenuSeparator, MenuTrigger } from './Menu';
import { Popover } from './Popover';
import { ConfirmDialog } from './Dialog';
import { Select, SelectItem } from './Select';
import { Tab, TabList, TabPanel, Tabs } from './Tabs';

const wrap = (ui: React.ReactNode) =>
  render(
    <MemoryRouter>
      <I18nextProvider i18n={i18n}>{ui}</I18nextProvider>
    </MemoryRouter>,
  );

/** a press as a pointer makes it */
function press(el: Element) {
  fireEvent.pointerDown(el, { button: 0, pointerId: 1, pointerType: 'mouse' });
  fireEvent.mouseDown(el);
  fireEvent.pointerUp(el, { button: 0, pointerId: 1, pointerType: 'mouse' });
  fireEvent.mouseUp(el);
  fireEvent.click(el);
}

test('a menu: items, danger and disabled; Escape closes it and focus returns to the trigger', async () => {
  const onAction = jest.fn();
  wrap(
    <MenuTrigger label="Account" trigger={<button type="button">Ada</button>}>
      <MenuItem id="profile" onAction={onAction} shortcut="Ctrl+P">
        Profile
      </MenuItem>
      <MenuItem id="off" isDisabled>
        Off
      </MenuItem>
      <MenuSeparator />
      <MenuItem id="out" danger>
        Sign out
      </MenuItem>
    </MenuTrigger>,
  );
  const trigger = screen.getByRole('button', { name: 'Ada' });
  trigger.focus();
  fireEvent.click(trigger);
  expect(trigger.getAttribute('aria-expanded')).toBe('true');
  expect(screen.getByRole('menuitem', { name: /Off/ }).getAttribute('aria-disabled')).toBe('true');
  expect(screen.getByRole('menuitem', { name: /Sign out/ }).className).toContain('kit-danger');
  await waitFor(() => expect(screen.getByRole('menu').contains(document.activeElement)).toBe(true));
  fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
  expect(screen.queryByRole('menu')).toBeNull();
  await waitFor(() => expect(document.activeElement).toBe(trigger));
  fireEvent.click(trigger);
  fireEvent.click(screen.getByRole('menuitem', { name: /Profile/ }));
  expect(onAction).toHaveBeenCalled();
  expect(screen.queryByRole('menu')).toBeNull();
});

test('a popover closes on a press outside; Escape closes the topmost only (a menu in it first)', async () => {
  wrap(
    <>
      <Popover label="Colours" trigger={<button type="button">Colour</button>}>
        <MenuTrigger label="More" trigger={<button type="button">More</button>}>
          <MenuItem id="a">A</MenuItem>
        </MenuTrigger>
      </Popover>
      <p>outside</p>
    </>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Colour' }));
  fireEvent.click(screen.getByRole('button', { name: 'More' }));
  expect(screen.getByRole('menu')).toBeTruthy();
  await waitFor(() => expect(screen.getByRole('menu').contains(document.activeElement)).toBe(true));
  fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
  expect(screen.queryByRole('menu')).toBeNull();
  expect(screen.getByRole('dialog', { name: 'Colours' })).toBeTruthy();
  press(document.querySelector('[data-testid="underlay"]') ?? document.body);
  expect(screen.queryByRole('dialog', { name: 'Colours' })).toBeNull();
});

test('the dropdown rule: opening one closes the others but not its ancestors; closing one closes its descendants', () => {
  function Three() {
    const [a, setA] = useState(false);
    const [child, setChild] = useState(false);
    const [b, setB] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setB(true)}>
          open b
        </button>
        <Popover label="A" isOpen={a} onOpenChange={setA} trigger={<button type="button">A</button>}>
          <Popover label="Child" isOpen={child} onOpenChange={setChild} trigger={<button type="button">child</button>}>
            child content
          </Popover>
        </Popover>
        <Popover label="B" isOpen={b} onOpenChange={setB} trigger={<button type="button">B</button>}>
          b content
        </Popover>
        <output>{[a && 'a', child && 'child', b && 'b'].filter(Boolean).join(',')}</output>
      </>
    );
  }
  wrap(<Three />);
  const state = () => screen.getByRole('status', { hidden: true }).textContent;
  fireEvent.click(screen.getByRole('button', { name: 'A' }));
  fireEvent.click(screen.getByRole('button', { name: 'child', hidden: true }));
  expect(state()).toBe('a,child'); // its ancestor stays open
  // another opened (here by code, as a shortcut would) closes every non-ancestor: A and its child
  act(() => screen.getByRole('button', { name: 'open b', hidden: true }).click());
  expect(state()).toBe('b');
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
});

test('closing a dropdown closes its descendants', () => {
  function Nested() {
    const [a, setA] = useState(false);
    const [child, setChild] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setA(false)}>
          close a
        </button>
        <Popover label="A" isOpen={a} onOpenChange={setA} trigger={<button type="button">A</button>}>
          <Popover label="Child" isOpen={child} onOpenChange={setChild} trigger={<button type="button">child</button>}>
            child content
          </Popover>
        </Popover>
        <output>{[a && 'a', child && 'child'].filter(Boolean).join(',')}</output>
      </>
    );
  }
  wrap(<Nested />);
  const state = () => screen.getByRole('status', { hidden: true }).textContent;
  fireEvent.click(screen.getByRole('button', { name: 'A' }));
  fireEvent.click(screen.getByRole('button', { name: 'child', hidden: true }));
  expect(state()).toBe('a,child');
  act(() => screen.getByRole('button', { name: 'close a', hidden: true }).click());
  expect(state()).toBe('');
});

test('confirmation dialog defaults: "Are you sure?", Cancel focused, a red Confirm', async () => {
  const onCancel = jest.fn();
  wrap(<ConfirmDialog onConfirm={() => undefined} onCancel={onCancel} />);
  const dialog = screen.getByRole('alertdialog');
  expect(dialog.textContent).toContain('Are you sure?');
  expect(screen.getByRole('button', { name: 'Confirm' }).className).toContain('danger');
  await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
  fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
  expect(onCancel).toHaveBeenCalled();
});

test('a select opens from the keyboard, picks with Enter and shows its error', () => {
  const onChange = jest.fn();
  wrap(
    <Select label="Grade" value={null} onChange={onChange} error="Pick a grade">
      <SelectItem id="a">A</SelectItem>
      <SelectItem id="b">B</SelectItem>
    </Select>,
  );
  expect(screen.getByText('Pick a grade')).toBeTruthy();
  const button = screen.getByRole('button', { name: /Grade/ });
  fireEvent.keyDown(button, { key: 'ArrowDown' });
  fireEvent.keyUp(button, { key: 'ArrowDown' });
  const listbox = screen.getByRole('listbox');
  fireEvent.keyDown(listbox, { key: 'ArrowDown' });
  fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
  fireEvent.keyUp(document.activeElement!, { key: 'Enter' });
  expect(onChange).toHaveBeenCalledWith('b');
});

test('tabs: arrow keys move the selection and show its panel', () => {
  wrap(
    <Tabs>
      <TabList label="Views">
        <Tab id="one">One</Tab>
        <Tab id="two">Two</Tab>
      </TabList>
      <TabPanel id="one">first</TabPanel>
      <TabPanel id="two">second</TabPanel>
    </Tabs>,
  );
  const one = screen.getByRole('tab', { name: 'One' });
  expect(one.getAttribute('aria-selected')).toBe('true');
  expect(screen.getByRole('tabpanel').textContent).toBe('first');
  act(() => one.focus());
  fireEvent.keyDown(one, { key: 'ArrowRight' });
  expect(screen.getByRole('tab', { name: 'Two' }).getAttribute('aria-selected')).toBe('true');
  expect(screen.getByRole('tabpanel').textContent).toBe('second');
});
