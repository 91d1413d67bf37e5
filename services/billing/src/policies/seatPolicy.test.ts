import { AppError } from '@wb/proto';
import { createLogger } from '@wb/platform';
import { FixedSeatPolicy, TeamsSeatPolicy } from './seatPolicy';

const log = createLogger({ service: 'test', level: 'silent' });
const bus = (answer: () => Promise<unknown>) => ({
  request: jest.fn(async () => ({ data: await answer() })),
});

describe('SeatPolicy', () => {
  it('asks svc.teams.seats.check with the owner as actor and passes its refusal on', async () => {
    const ok = bus(async () => ({ ok: true, activeUsers: 2 }));
    await new TeamsSeatPolicy(ok as never, 'teams', log).check(7, 3);
    expect(ok.request).toHaveBeenCalledWith('teams', 'seats.check', { seats: 3 }, { userId: 7 });
    const refuse = bus(async () => {
      throw new AppError('ERR_SEAT_COUNT_TOO_LOW');
    });
    await expect(new TeamsSeatPolicy(refuse as never, 'auto', log).check(7, 1)).rejects.toMatchObject({
      code: 'ERR_SEAT_COUNT_TOO_LOW',
    });
    // a reply counting more users than seats is a refusal too
    const more = bus(async () => ({ ok: true, activeUsers: 5 }));
    await expect(new TeamsSeatPolicy(more as never, 'teams', log).check(7, 4)).rejects.toMatchObject({
      code: 'ERR_SEAT_COUNT_TOO_LOW',
    });
  });

  it('without a teams service: auto counts only the owner, teams refuses to guess', async () => {
    const none = bus(async () => {
      throw new AppError('ERR_SERVICE_UNAVAILABLE');
    });
    await expect(new TeamsSeatPolicy(none as never, 'auto', log).check(7, 1)).resolves.toBeUndefined();
    await expect(new TeamsSeatPolicy(none as never, 'teams', log).check(7, 1)).rejects.toMatchObject({
      code: 'ERR_TEMPORARY_PROBLEM',
    });
  });

  it('the test double', async () => {
    const p = new FixedSeatPolicy(() => 3);
    await expect(p.check(1, 2)).rejects.toMatchObject({
      code: 'ERR_SEAT_COUNT_TOO_LOW',
      fields: { seats: 'at least 3' },
    });
    await expect(p.check(1, 3)).resolves.toBeUndefined();
  });
});
