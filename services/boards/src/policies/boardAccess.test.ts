import { describe, expect, it } from '@jest/globals';
import { accessIncludes, AppError, PLANS } from '@wb/proto';
import type { BoardAccess, BoardPermission, Plan } from '@wb/proto';
import { accessOf, assertOwner, NO_GRANTS, ownerPlanNeeded } from './boardAccess';

const OWNER = 7;
const BOB = 8;
const GUEST = 0;
const TRASHED = new Date('2026-01-01T00:00:00Z');

interface Case {
  name: string;
  actor: number;
  defaultPermission: BoardPermission;
  trashed?: boolean;
  grant?: BoardPermission;
  plan: Plan | null;
  expected: BoardAccess;
}

const cases: Case[] = [
  { name: 'owner', actor: OWNER, defaultPermission: 'none', plan: null, expected: 'own' },
  { name: 'owner, trashed board', actor: OWNER, defaultPermission: 'edit', trashed: true, plan: null, expected: 'own' },
  {
    name: 'owner, a grant for someone else changes nothing',
    actor: OWNER,
    defaultPermission: 'edit',
    grant: 'view',
    plan: null,
    expected: 'own',
  },
  { name: 'user, default edit', actor: BOB, defaultPermission: 'edit', plan: null, expected: 'edit' },
  { name: 'user, default view', actor: BOB, defaultPermission: 'view', plan: null, expected: 'view' },
  { name: 'user, default none', actor: BOB, defaultPermission: 'none', plan: null, expected: 'none' },
  {
    name: 'user, grant view beats default edit',
    actor: BOB,
    defaultPermission: 'edit',
    grant: 'view',
    plan: null,
    expected: 'view',
  },
  {
    name: 'user, grant edit beats default none',
    actor: BOB,
    defaultPermission: 'none',
    grant: 'edit',
    plan: null,
    expected: 'edit',
  },
  {
    name: 'user, grant none beats default edit',
    actor: BOB,
    defaultPermission: 'edit',
    grant: 'none',
    plan: null,
    expected: 'none',
  },
  {
    name: 'user, trashed board',
    actor: BOB,
    defaultPermission: 'edit',
    trashed: true,
    plan: PLANS.ultimate,
    expected: 'none',
  },
  {
    name: 'user, trashed board despite a grant',
    actor: BOB,
    defaultPermission: 'edit',
    grant: 'edit',
    trashed: true,
    plan: null,
    expected: 'none',
  },
  {
    name: 'guest, owner on starter (no guests)',
    actor: GUEST,
    defaultPermission: 'edit',
    plan: PLANS.starter,
    expected: 'none',
  },
  { name: 'guest, owner on standard', actor: GUEST, defaultPermission: 'edit', plan: PLANS.standard, expected: 'edit' },
  {
    name: 'guest, owner on premium, default view',
    actor: GUEST,
    defaultPermission: 'view',
    plan: PLANS.premium,
    expected: 'view',
  },
  {
    name: 'guest, owner on ultimate, default none',
    actor: GUEST,
    defaultPermission: 'none',
    plan: PLANS.ultimate,
    expected: 'none',
  },
  { name: 'guest, plan unknown (fail closed)', actor: GUEST, defaultPermission: 'edit', plan: null, expected: 'none' },
  {
    name: 'guest, trashed board',
    actor: GUEST,
    defaultPermission: 'edit',
    trashed: true,
    plan: PLANS.standard,
    expected: 'none',
  },
  {
    name: 'guest, grants never apply',
    actor: GUEST,
    defaultPermission: 'view',
    grant: 'edit',
    plan: PLANS.standard,
    expected: 'view',
  },
];

describe('accessOf', () => {
  it.each(cases)('$name → $expected', ({ actor, defaultPermission, trashed, grant, plan, expected }) => {
    const board = { user_id: OWNER, default_permission: defaultPermission, trashed_at: trashed ? TRASHED : null };
    // a grant is stored for the acting user (for the guest case: for user 0, which never exists)
    const grants = grant ? new Map([[actor === OWNER ? BOB : actor, grant]]) : NO_GRANTS;
    expect(accessOf(board, { userId: actor }, grants, plan)).toBe(expected);
  });

  it('only guests need the owner’s plan', () => {
    expect(ownerPlanNeeded({ user_id: OWNER }, { userId: GUEST })).toBe(true);
    expect(ownerPlanNeeded({ user_id: OWNER }, { userId: BOB })).toBe(false);
    expect(ownerPlanNeeded({ user_id: OWNER }, { userId: OWNER })).toBe(false);
  });
});

describe('access levels (spec §4: own ⊃ edit ⊃ view)', () => {
  it.each([
    ['own', 'edit', true],
    ['own', 'view', true],
    ['edit', 'view', true],
    ['edit', 'own', false],
    ['view', 'edit', false],
    ['none', 'view', false],
    ['view', 'view', true],
  ] as const)('%s includes %s: %s', (access, needed, expected) => {
    expect(accessIncludes(access, needed)).toBe(expected);
  });
});

describe('assertOwner', () => {
  it('answers ERR_FORBIDDEN to anyone but the owner', () => {
    expect(() => assertOwner({ user_id: OWNER }, OWNER)).not.toThrow();
    expect(() => assertOwner({ user_id: OWNER }, BOB)).toThrow(AppError);
    try {
      assertOwner({ user_id: OWNER }, BOB);
    } catch (err) {
      expect((err as AppError).code).toBe('ERR_FORBIDDEN');
    }
  });
});
