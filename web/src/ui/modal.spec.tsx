/// <reference types="jest" />
import { useState } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n/i18n';
import { Dialog } from './kit/Dialog';
import { ConfirmDialog } from './kit/Dialog';

function Two() {
  const [outer, setOuter] = useState(true);
  const [inner, setInner] = useState(false);
  return (
    <>
      {outer ? (
        <Dialog title="Outer" onClose={() => setOuter(false)}>
          <button type="button" onClick={() => setInner(true)}>
            open inner
          </button>
        </Dialog>
      ) : null}
      {inner ? (
        <Dialog title="Inner" onClose={() => setInner(false)}>
          <button type="button">inner action</button>
        </Dialog>
      ) : null}
    </>
  );
}

const wrap = (ui: React.ReactNode) =>
  render(
    <MemoryRouter>
      <I18nextProvider i18n={i18n}>{ui}</I18nextProvider>
    </MemoryRouter>,
  );

// the inner one is opened from the outer; the keys go where the focus is, as a keyboard's do; only
// the topmost modal is in the accessibility tree (aria-modal), so both are counted with hidden: true
test('Escape closes the topmost modal only', async () => {
  wrap(<Two />);
  fireEvent.click(screen.getByRole('button', { name: 'open inner' }));
  expect(screen.getAllByRole('dialog', { hidden: true })).toHaveLength(2);
  await waitFor(() => expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true));
  fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
  expect(screen.getAllByRole('dialog', { hidden: true }).map((d) => d.textContent)).toEqual([
    expect.stringContaining('Outer'),
  ]);
  // focus returns into the outer one
  await waitFor(() => expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true));
  fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
  expect(screen.queryAllByRole('dialog', { hidden: true })).toHaveLength(0);
});

/** a press as a pointer makes it: down and up on the element */
function press(el: Element) {
  fireEvent.pointerDown(el, { button: 0, pointerId: 1, pointerType: 'mouse' });
  fireEvent.mouseDown(el);
  fireEvent.pointerUp(el, { button: 0, pointerId: 1, pointerType: 'mouse' });
  fireEvent.mouseUp(el);
  fireEvent.click(el);
}

test('a backdrop click closes; focus starts inside and Tab stays inside', () => {
  const onClose = jest.fn();
  wrap(
    <Dialog title="T" onClose={onClose}>
      <button type="button">a</button>
    </Dialog>,
  );
  const dialog = screen.getByRole('dialog');
  expect(dialog.contains(document.activeElement)).toBe(true);
  const buttons = dialog.querySelectorAll('button');
  (buttons[buttons.length - 1] as HTMLElement).focus();
  fireEvent.keyDown(document, { key: 'Tab' });
  expect(document.activeElement).toBe(buttons[0]);
  press(document.querySelector('.backdrop')!);
  expect(onClose).toHaveBeenCalled();
});

test('confirmation dialog: default title, cancel and a red confirm', () => {
  const onConfirm = jest.fn();
  wrap(<ConfirmDialog onConfirm={onConfirm} onCancel={() => undefined} />);
  expect(screen.getByRole('alertdialog').textContent).toContain('Are you sure?');
  const confirm = screen.getByRole('button', { name: 'Confirm' });
  expect(confirm.className).toContain('danger');
  fireEvent.click(confirm);
  expect(onConfirm).toHaveBeenCalled();
  expect(screen.getByRole('button', { name: 'Cancel' })).not.toBeNull();
});
