/// <reference types="jest" />
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { avatarColor } from '@wb/proto';
import '../../i18n/i18n';
import { TOOLTIP_HIDE_MS, TOOLTIP_SHOW_MS } from '../Tooltip';
import { Avatar } from './Avatar';
import { Button, IconButton } from './Button';
import { Checkbox } from './Checkbox';
import { Switch } from './Switch';
import { Table, type Column } from './Table';
import { TextField } from './TextField';

test('a loading button is busy, shows a spinner and cannot be pressed; disabled cannot either', () => {
  const onClick = jest.fn();
  const { rerender } = render(
    <Button variant="primary" loading onClick={onClick}>
      Save
    </Button>,
  );
  const button = screen.getByRole('button', { name: 'Save' });
  expect(button.getAttribute('aria-busy')).toBe('true');
  expect(button).toHaveProperty('disabled', true);
  expect(button.querySelector('.btn-spinner')).not.toBeNull();
  expect(button.className).toBe('btn btn-primary btn-md');
  fireEvent.click(button);
  rerender(
    <Button disabled onClick={onClick}>
      Save
    </Button>,
  );
  expect(button.getAttribute('aria-busy')).toBeNull();
  fireEvent.click(button);
  expect(onClick).not.toHaveBeenCalled();
  rerender(<Button onClick={onClick}>Save</Button>);
  expect(button.getAttribute('type')).toBe('button');
  fireEvent.click(button);
  expect(onClick).toHaveBeenCalledTimes(1);
});

test('an icon button is named by its label and shows it as a tooltip after 500 ms, gone 50 ms after leaving', () => {
  jest.useFakeTimers();
  try {
    render(<IconButton label="Share" icon={<svg />} />);
    const button = screen.getByRole('button', { name: 'Share' });
    fireEvent.mouseEnter(button);
    act(() => jest.advanceTimersByTime(TOOLTIP_SHOW_MS - 1));
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.getByRole('tooltip').textContent).toBe('Share');
    fireEvent.mouseLeave(button);
    act(() => jest.advanceTimersByTime(TOOLTIP_HIDE_MS - 1));
    expect(screen.queryByRole('tooltip')).not.toBeNull();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect([TOOLTIP_SHOW_MS, TOOLTIP_HIDE_MS]).toEqual([500, 50]);
  } finally {
    jest.useRealTimers();
  }
});

test('a text field ties its hint and error to the input and marks it invalid', () => {
  const onChange = jest.fn();
  const { rerender } = render(<TextField label="Email" hint="We never share it." value="" onChange={onChange} />);
  const input = screen.getByLabelText('Email');
  expect(input.getAttribute('aria-invalid')).toBeNull();
  expect(input.getAttribute('aria-describedby')).toBe(screen.getByText('We never share it.').id);
  fireEvent.change(input, { target: { value: 'a@b' } });
  expect(onChange).toHaveBeenCalledWith('a@b');
  rerender(<TextField label="Email" hint="We never share it." value="a@" onChange={onChange} error="Enter an email" />);
  expect(input.getAttribute('aria-invalid')).toBe('true');
  const ids = input.getAttribute('aria-describedby')!.split(' ');
  expect(ids.map((id) => document.getElementById(id)!.textContent)).toEqual(['We never share it.', 'Enter an email']);
  rerender(<TextField label="Notes" multiline value="" onChange={onChange} error="Too short" />);
  const area = screen.getByLabelText('Notes');
  expect(area.tagName).toBe('TEXTAREA');
  expect(area.getAttribute('aria-invalid')).toBe('true');
});

test('a switch and a checkbox toggle by click, and the switch by its label', () => {
  function Both() {
    const [on, setOn] = useState(false);
    const [checked, setChecked] = useState(false);
    return (
      <>
        <Switch label="Show the grid" checked={on} onChange={setOn} />
        <Checkbox label="Weekly summary" checked={checked} onChange={setChecked} />
      </>
    );
  }
  render(<Both />);
  const sw = screen.getByRole('switch', { name: 'Show the grid' });
  expect(sw.getAttribute('aria-checked')).toBe('false');
  fireEvent.click(sw);
  expect(sw.getAttribute('aria-checked')).toBe('true');
  fireEvent.click(screen.getByText('Show the grid'));
  expect(sw.getAttribute('aria-checked')).toBe('false');
  const box = screen.getByRole('checkbox', { name: 'Weekly summary' });
  fireEvent.click(box);
  expect(box).toHaveProperty('checked', true);
  fireEvent.click(screen.getByText('Weekly summary'));
  expect(box).toHaveProperty('checked', false);
});

test("an avatar's colour is the person's (proto avatarColor), its initials the first and last word's", () => {
  for (const id of [1, 2, 7, 8, 1234]) {
    const { container, unmount } = render(<Avatar name="Ada King Lovelace" userId={id} />);
    const span = container.firstElementChild as HTMLElement;
    expect(span.style.background).toBe(hexToRgb(avatarColor(id)));
    expect(span.textContent).toBe('AL');
    expect(span.getAttribute('aria-hidden')).toBe('true');
    unmount();
  }
  render(<Avatar name="Grace" userId={3} label />);
  expect(screen.getByRole('img', { name: 'Grace' }).textContent).toBe('G');
});

function hexToRgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

interface Row {
  id: number;
  name: string;
  score: number;
}
const ROWS: Row[] = [
  { id: 1, name: 'Ada', score: 80 },
  { id: 2, name: 'bob', score: 95 },
  { id: 3, name: 'Cy', score: 80 },
  { id: 4, name: 'Dee', score: 60 },
];
const COLUMNS: Column<Row>[] = [
  { key: 'name', header: 'Name', sortValue: (r) => r.name, cell: (r) => r.name },
  { key: 'score', header: 'Score', sortValue: (r) => r.score, cell: (r) => r.score },
  { key: 'id', header: 'Id', cell: (r) => r.id },
];
const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);

test('a table sorts by a header (click or Enter on its button), says so with aria-sort, and keeps ties in order', () => {
  render(<Table caption="Scores" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} />);
  const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(name) });
  expect(names()).toEqual(['Ada', 'bob', 'Cy', 'Dee']);
  expect(header('Name').getAttribute('aria-sort')).toBe('none');
  expect(header('Id').getAttribute('aria-sort')).toBeNull();

  fireEvent.click(within(header('Score')).getByRole('button'));
  expect(header('Score').getAttribute('aria-sort')).toBe('ascending');
  expect(names()).toEqual(['Dee', 'Ada', 'Cy', 'bob']);
  fireEvent.click(within(header('Score')).getByRole('button'));
  expect(header('Score').getAttribute('aria-sort')).toBe('descending');
  // Ada and Cy tie at 80: still in the given order
  expect(names()).toEqual(['bob', 'Ada', 'Cy', 'Dee']);
  expect(header('Name').getAttribute('aria-sort')).toBe('none');

  // a button: Enter and Space press it in a browser (jsdom: a click)
  fireEvent.click(within(header('Name')).getByRole('button'));
  expect(names()).toEqual(['Ada', 'bob', 'Cy', 'Dee']); // case-insensitive
});

test('a table row opens by click or Enter; no rows shows the empty state', () => {
  const onRowClick = jest.fn();
  const { rerender } = render(
    <Table caption="Scores" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} onRowClick={onRowClick} />,
  );
  const rows = screen.getAllByRole('row').slice(1);
  fireEvent.click(rows[1]!);
  fireEvent.keyDown(rows[2]!, { key: 'Enter' });
  expect(onRowClick.mock.calls.map(([r]) => (r as Row).name)).toEqual(['bob', 'Cy']);
  expect(screen.getByRole('region', { name: 'Scores' }).getAttribute('tabindex')).toBe('0');
  rerender(<Table caption="Scores" columns={COLUMNS} rows={[]} rowKey={(r) => r.id} empty="Nothing yet" />);
  expect(screen.getByRole('cell', { name: 'Nothing yet' }).getAttribute('colspan')).toBe('3');
});
