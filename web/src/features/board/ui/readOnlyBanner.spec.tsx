/** The read-only banner names the limit, the reset time and who can lift it (issue 26 #9). */
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n, loadNamespace } from '../../../i18n/i18n';
import { nextWeeklyReset, ReadOnlyBanner } from './ReadOnlyBanner';

beforeAll(async () => {
  await loadNamespace('board', 'en');
});

const show = (props: Partial<Parameters<typeof ReadOnlyBanner>[0]>, onUpgrade = jest.fn()) =>
  render(
    <I18nextProvider i18n={i18n}>
      <ReadOnlyBanner
        cause="plan"
        reason="collaborationMinutes"
        isOwner={false}
        ownerName={null}
        onUpgrade={onUpgrade}
        now={new Date('2026-11-28T10:00:00Z')}
        timeZone="UTC"
        {...props}
      />
    </I18nextProvider>,
  );

describe('ReadOnlyBanner', () => {
  it('the weekly reset is the next Monday 00:00 UTC', () => {
    expect(nextWeeklyReset(new Date('2026-11-28T10:00:00Z')).toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(nextWeeklyReset(new Date('2026-11-30T00:00:00Z')).toISOString()).toBe('2026-12-07T00:00:00.000Z');
    expect(nextWeeklyReset(new Date('2026-11-29T23:59:00Z')).toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });

  it('minutes used up: names the limit and the reset; the owner gets the upgrade prompt', () => {
    const onUpgrade = jest.fn();
    show({ isOwner: true }, onUpgrade);
    const note = screen.getByRole('note');
    expect(note.textContent).toMatch(/this week's collaboration minutes are used up/);
    expect(note.textContent).toMatch(/Monday, November 30 at 12:00 AM/);
    fireEvent.click(screen.getByRole('button', { name: 'Upgrade' }));
    expect(onUpgrade).toHaveBeenCalled();
  });

  it('boards over the plan: others see who can lift it, and no upgrade button', () => {
    show({ reason: 'planLimits', ownerName: 'Olga' });
    const note = screen.getByRole('note');
    expect(note.textContent).toMatch(/more boards than their plan allows/);
    expect(note.textContent).toMatch(/Olga, the board's owner, can lift this/);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('a viewer keeps the one line', () => {
    show({ cause: 'viewer', reason: null });
    expect(screen.getByRole('note').textContent).toBe('View only: you can look at this board but not change it.');
  });
});
