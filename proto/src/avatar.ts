/**
 * A person's colour: their avatar in the board's top bar and the app header, their cursor,
 * selection, laser and instruments on a board. Derived from the user id alone, so it is the same
 * on every reload, in every tab and for everyone who sees them (issue 26 #15). Every colour
 * carries white initials at 4.5:1 or more (WCAG AA) and stays visible on the dark board.
 */
export const AVATAR_COLORS = [
  '#d32f2f',
  '#2e7d32',
  '#1565c0',
  '#c2185b',
  '#8e24aa',
  '#00796b',
  '#b45309',
  '#6d4c41',
] as const;

/** The colour of a signed-in user (id ≥ 1). Consecutive ids get different colours. */
export function avatarColor(userId: number): string {
  const n = AVATAR_COLORS.length;
  const i = ((Math.trunc(userId) % n) + n) % n;
  return AVATAR_COLORS[i]!;
}
