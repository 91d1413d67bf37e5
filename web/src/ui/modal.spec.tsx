/// <reference types="jest" />
import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n/i18n';
import { Modal } from './Modal';
import { ConfirmDialog } from './ConfirmDialog';

function Two() {
  const [outer, setOuter] = useState(true);
  const [inner, setInner] = useState(true);
  return (
    <>
      {outer ? (
        <Modal title="Outer" onClose={() => setOuter(false)}>
          <button type="button">outer action</button>
        </Modal>
      ) : null}
      {inner ? (
        <Modal title="Inner" onClose={() => setInner(false)}>
          <button type="button">inner action</button>
        </Modal>
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

test('Escape closes the topmost modal only', () => {
  wrap(<Two />);
  expect(screen.getAllByRole('dialog')).toHaveLength(2);
  fireEvent.keyDown(document, { key: 'Escape' });
  expect(screen.getAllByRole('dialog').map((d) => d.textContent)).toEqual([expect.stringContaining('Outer')]);
  fireEvent.keyDown(document, { key: 'Escape' });
  expect(screen.queryAllByRole('dialog')).toHaveLength(0);
});

test('a backdrop click closes; focus starts inside and Tab stays inside', () => {
  const onClose = jest.fn();
  wrap(
    <Modal title="T" onClose={onClose}>
      <button type="button">a</button>
    </Modal>,
  );
  const dialog = screen.getByRole('dialog');
  expect(dialog.contains(document.activeElement)).toBe(true);
  const buttons = dialog.querySelectorAll('button');
  (buttons[buttons.length - 1] as HTMLElement).focus();
  fireEvent.keyDown(document, { key: 'Tab' });
  expect(document.activeElement).toBe(buttons[0]);
  fireEvent.mouseDown(dialog.parentElement!);
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
