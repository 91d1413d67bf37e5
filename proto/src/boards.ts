/**
 * Boards service contracts: board metadata, folders, sharing and the access levels the realtime
 * nodes ask for. Board content is not here: it belongs to the realtime nodes.
 * (Owned by the boards service; the gateway, the web and the realtime nodes import these.)
 */
import { z } from 'zod';
import { emptyInputSchema } from './auth';
import { collaborationSpanSchema } from './events';
import { DB_INT_MAX, userIdSchema } from './input';
import { BOARD_BACKGROUNDS, BOARD_PERMISSIONS } from './settings';

export type BoardBackground = (typeof BOARD_BACKGROUNDS)[number];
/** default permission of joining users / an explicit per-user grant (spec §3: can edit, can view, no access) */
export type BoardPermission = (typeof BOARD_PERMISSIONS)[number];

/** Spec §4: own ⊃ edit ⊃ view; none. Ordered from least to most. */
export const BOARD_ACCESS_LEVELS = ['none', 'view', 'edit', 'own'] as const;
export type BoardAccess = (typeof BOARD_ACCESS_LEVELS)[number];

/** true when `access` includes `needed` (own includes edit and view; edit includes view) */
export function accessIncludes(access: BoardAccess, needed: BoardAccess): boolean {
  return BOARD_ACCESS_LEVELS.indexOf(access) >= BOARD_ACCESS_LEVELS.indexOf(needed);
}

/** Why a board the caller may otherwise edit is read-only (spec §4); not computed yet, always null. */
export const READ_ONLY_REASONS = ['planLimits', 'collaborationMinutes'] as const;
export type ReadOnlyReason = (typeof READ_ONLY_REASONS)[number];

/** Spec §9: random ids use a 64-character alphabet (URL-safe), default length 21. */
export const BOARD_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
export const BOARD_ID_LENGTH = 21;
export const BOARD_ID_MAX_LENGTH = 200;
/**
 * New ids never contain a slash; imported/legacy ids may (spec §2: "the id may contain slashes"):
 * segments of the alphabet joined by single slashes.
 */
export const BOARD_ID_PATTERN = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;
export const BOARD_TITLE_MAX_LENGTH = 200;
/** spec §3: title default "untitled" */
export const DEFAULT_BOARD_TITLE = 'untitled';
export const FOLDER_NAME_MAX_LENGTH = 100;
/** Most ids one batch call (trash, restore, purge, leave, moveBoards) may name (spec §9: "restore is limited"). */
export const BOARD_BATCH_MAX = 100;
/** Spec §4/§9: trashed boards are deleted for good after 1 month (taken as 30 days). */
export const TRASH_RETENTION_DAYS = 30;

/**
 * Where a board's dashboard preview (WebP) is in the realtime nodes' object store: inside the
 * board's snapshot folder ("/" of legacy ids as "~"), so a purge removes it with the snapshots.
 * The realtime node writes it, the gateway serves it (GET /api/boards/{id}/preview.webp).
 */
export function boardPreviewKey(boardId: string): string {
  return `${encodeURIComponent(boardId).replaceAll('%2F', '~')}/preview.webp`;
}

export const boardIdSchema = z
  .string()
  .max(BOARD_ID_MAX_LENGTH)
  .regex(BOARD_ID_PATTERN, 'not a board id')
  .describe('board id; may contain slashes');
export const folderIdSchema = z.number().int().positive().max(DB_INT_MAX);
/** a folder id in a path: digits */
export const folderIdParamSchema = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'not a folder id')
  .transform(Number)
  .pipe(folderIdSchema);
export const boardTitleSchema = z.string().trim().min(1).max(BOARD_TITLE_MAX_LENGTH);
export const folderNameSchema = z.string().trim().min(1).max(FOLDER_NAME_MAX_LENGTH);
export const boardIdsSchema = z.array(boardIdSchema).min(1).max(BOARD_BATCH_MAX);

// ---------------------------------------------------------------------------------------------
// What leaves the service

/**
 * One board as the dashboard's list views use it (spec §4: all, owned, shared, unsorted, folder,
 * trashed). `folder_id` is always null for boards shared with the caller (folders are private).
 * GET /api/boards sends these as columns (BoardList, below); `expandBoardList` turns them back.
 */
export const boardListItemSchema = z.object({
  id: z.string(),
  /** owner */
  user_id: z.number().int(),
  title: z.string(),
  folder_id: z.number().int().nullable(),
  /** ISO time the board was trashed, or null */
  trashed: z.string().nullable(),
  /** ISO time of the board's last change */
  updated: z.string(),
  /** the owner's display name, on boards shared with the caller */
  owner_name: z.string().optional(),
  /** the version of its dashboard preview (GET /api/boards/{id}/preview.webp?v=…); absent until it has one */
  preview: z.number().int().optional(),
});
export type BoardListItem = z.infer<typeof boardListItemSchema>;

/**
 * GET /api/boards: every board the caller owns (trashed included) and the boards of others they
 * joined and may open, one array per field ("columns", index i of each array is board i). The
 * dashboard loads every board at once and a user may have thousands: as columns the answer is
 * half the size of an array of objects and several times cheaper to encode and decode at each
 * hop (service → NATS → gateway → browser).
 */
export const boardListSchema = z.object({
  /** the caller's boards, newest first */
  owned: z.object({
    id: z.array(z.string()),
    title: z.array(z.string()),
    folder_id: z.array(z.number().int().nullable()),
    /** each board's last change, in unix seconds (a third of an ISO string's bytes × 5,000 boards) */
    updated: z.array(z.number().int()),
    /** board id → ISO time it was trashed, for the owned boards in the trash only */
    trashed: z.record(z.string(), z.string()),
  }),
  /** boards of other owners the caller joined (not trashed, access not none), last joined first */
  shared: z.object({
    id: z.array(z.string()),
    title: z.array(z.string()),
    /** owner */
    user_id: z.array(z.number().int()),
    /** the owner's display name ('' when it could not be looked up) */
    owner_name: z.array(z.string()),
    /** unix seconds, as in owned */
    updated: z.array(z.number().int()),
  }),
  /** board id → its dashboard preview's version, for the boards (owned or shared) that have one */
  preview: z.record(z.string(), z.number().int()).optional(),
});
export type BoardList = z.infer<typeof boardListSchema>;

const isoFromSeconds = (s: number): string => new Date(s * 1000).toISOString();

/** The list as one object per board (owned first, then shared); `userId` is the caller. */
export function expandBoardList(list: BoardList, userId: number): BoardListItem[] {
  const { owned, shared } = list;
  const out: BoardListItem[] = [];
  for (let i = 0; i < owned.id.length; i++) {
    const id = owned.id[i]!;
    out.push({
      id,
      user_id: userId,
      title: owned.title[i]!,
      folder_id: owned.folder_id[i] ?? null,
      trashed: owned.trashed[id] ?? null,
      updated: isoFromSeconds(owned.updated[i]!),
      ...(list.preview?.[id] ? { preview: list.preview[id] } : {}),
    });
  }
  for (let i = 0; i < shared.id.length; i++) {
    const id = shared.id[i]!;
    out.push({
      id,
      user_id: shared.user_id[i]!,
      title: shared.title[i]!,
      folder_id: null,
      trashed: null,
      updated: isoFromSeconds(shared.updated[i]!),
      owner_name: shared.owner_name[i] ?? '',
      ...(list.preview?.[id] ? { preview: list.preview[id] } : {}),
    });
  }
  return out;
}

/** One board with all its metadata and what the caller may do on it. */
export const boardDtoSchema = boardListItemSchema.extend({
  trashed_count: z.number().int(),
  background: z.enum(BOARD_BACKGROUNDS),
  defaultPermission: z.enum(BOARD_PERMISSIONS),
  /** collaboration control: only creators may delete their own objects (the owner always may) */
  deleteOwnOnly: z.boolean(),
  created: z.string(),
  access: z.enum(BOARD_ACCESS_LEVELS),
});
export type BoardDto = z.infer<typeof boardDtoSchema>;

export const folderDtoSchema = z.object({ id: z.number().int(), name: z.string() });
export type FolderDto = z.infer<typeof folderDtoSchema>;

export const boardMemberSchema = z.object({
  userId: z.number().int(),
  /** display name; null when it cannot be looked up right now */
  name: z.string().nullable(),
  /** explicit grant; null = the board's default permission applies */
  permission: z.enum(BOARD_PERMISSIONS).nullable(),
  /** ISO time of the first join, or null (granted but never joined) */
  joined: z.string().nullable(),
});
/** The share dialog (owner only): the link and who joined or was granted what. */
export const boardShareSchema = z.object({
  url: z.string(),
  defaultPermission: z.enum(BOARD_PERMISSIONS),
  deleteOwnOnly: z.boolean(),
  members: z.array(boardMemberSchema),
});
export type BoardShare = z.infer<typeof boardShareSchema>;

/** What the realtime nodes need to run a room. */
export const boardSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  ownerId: z.number().int(),
  background: z.enum(BOARD_BACKGROUNDS),
  defaultPermission: z.enum(BOARD_PERMISSIONS),
  deleteOwnOnly: z.boolean(),
});
export const accessCheckReplySchema = z.object({
  access: z.enum(BOARD_ACCESS_LEVELS),
  readOnlyReason: z.enum(READ_ONLY_REASONS).nullable(),
  board: boardSummarySchema,
});
export type AccessCheckReply = z.infer<typeof accessCheckReplySchema>;

/**
 * GET /api/boards answers spec §7's "list of boards" (one Board per entry, owned first, then the
 * shared ones) unless the caller asks for `format=columns` (BoardList above), which the dashboard
 * does: at thousands of boards the columns are half the bytes and far cheaper to encode and decode.
 */
export const BOARD_LIST_FORMATS = ['boards', 'columns'] as const;
export type BoardListFormat = (typeof BOARD_LIST_FORMATS)[number];
export const boardsListInputSchema = z.strictObject({
  format: z.enum(BOARD_LIST_FORMATS).optional().describe('boards (default, spec §7) or columns (the dashboard’s)'),
});
export const boardsListOutputSchema = z.union([z.array(boardDtoSchema), boardListSchema]);

export const boardsBatchReplySchema = z.object({ boards: z.array(boardListItemSchema) });
export const boardIdsReplySchema = z.object({ ids: z.array(z.string()) });

// ---------------------------------------------------------------------------------------------
// Inputs

const permissionSchema = z.enum(BOARD_PERMISSIONS);
const backgroundSchema = z.enum(BOARD_BACKGROUNDS);

/** POST /api/boards. Defaults from the creator's settings are applied by the web. */
export const boardCreateInputSchema = z.strictObject({
  title: boardTitleSchema.optional(),
  background: backgroundSchema.optional(),
  defaultPermission: permissionSchema.optional(),
  deleteOwnOnly: z.boolean().optional(),
  folder: folderIdSchema.nullable().optional(),
});
export const boardRefSchema = z.strictObject({ boardId: boardIdSchema });
/** PUT /api/boards/{boardId}: rename (spec §7) and/or change settings; at least one field. */
export const boardUpdateBodySchema = z
  .strictObject({
    title: boardTitleSchema.optional(),
    background: backgroundSchema.optional(),
    defaultPermission: permissionSchema.optional(),
    deleteOwnOnly: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'nothing to change');
export const boardUpdateInputSchema = z
  .strictObject({
    boardId: boardIdSchema,
    title: boardTitleSchema.optional(),
    background: backgroundSchema.optional(),
    defaultPermission: permissionSchema.optional(),
    deleteOwnOnly: z.boolean().optional(),
  })
  .refine(
    (b) => [b.title, b.background, b.defaultPermission, b.deleteOwnOnly].some((v) => v !== undefined),
    'nothing to change',
  );
/** an explicit permission for one logged-in user; null removes it (the default applies again) */
export const boardGrantInputSchema = z.strictObject({
  boardId: boardIdSchema,
  userId: userIdSchema,
  permission: permissionSchema.nullable(),
});
export const boardIdsInputSchema = z.strictObject({ ids: boardIdsSchema });
/** POST /api/folders/moveBoards (spec §7): folder null = unsorted */
export const moveBoardsInputSchema = z.strictObject({
  folder: folderIdSchema.nullable(),
  boards: boardIdsSchema,
});
export const folderCreateInputSchema = z.strictObject({ name: folderNameSchema });
export const folderRenameBodySchema = z.strictObject({ name: folderNameSchema });
export const folderRenameInputSchema = z.strictObject({ folderId: folderIdSchema, name: folderNameSchema });
export const folderRefSchema = z.strictObject({ folderId: folderIdSchema });
export const folderDeleteReplySchema = z.object({
  ok: z.literal(true),
  /** boards that were in the folder and are unsorted now */
  boardIds: z.array(z.string()),
});
/** svc.boards.access.check, asked by the realtime nodes with the joining actor */
export const accessCheckInputSchema = z.strictObject({
  boardId: boardIdSchema,
  /** record the join for "shared with me" (logged-in non-owners with access) */
  record: z.boolean().optional(),
  /** ask auth for the owner's plan instead of using a cached one (a plan change is being applied) */
  freshPlan: z.boolean().optional(),
});

/**
 * The owner's collaboration time this week (spec §4 "Board read-only", §9): one counter, read by
 * the lock (access.check, the realtime node's meter) and by the figure the owner sees.
 * The week starts Monday 00:00 UTC.
 */
export const collaborationUsageSchema = z.object({
  usedMs: z.number().int().nonnegative(),
  /** the owner's plan's maxCollaborationMinutesPerWeek in ms */
  limitMs: z.number().int().nonnegative(),
  /** YYYY-MM-DD, the Monday the week started (00:00 UTC) */
  weekStart: z.string(),
  /** ISO time of the next reset (the next Monday 00:00 UTC) */
  resetsAt: z.string(),
});
export type CollaborationUsage = z.infer<typeof collaborationUsageSchema>;
/** svc.boards.collaboration.usage; `freshPlan`: the owner's plan just changed (realtime nodes) */
export const collaborationUsageInputSchema = z.strictObject({ freshPlan: z.boolean().optional() });
/** svc.boards.collaboration.checkpoint (realtime nodes only, actor = the board's owner) */
export const collaborationCheckpointInputSchema = z.strictObject({
  span: collaborationSpanSchema,
  freshPlan: z.boolean().optional(),
});

/**
 * svc.boards.board.duplicate (NATS only: the courses service's copy for each student; never
 * routed by the gateway): a new board of `ownerId` titled `title`, with the source board's
 * settings and content, outside the owner's board limit (`copied_from` records the source).
 */
export const boardDuplicateInputSchema = z.strictObject({
  sourceBoardId: boardIdSchema,
  ownerId: userIdSchema,
  title: z.string().trim().min(1).max(200),
});
export const boardDuplicateReplySchema = z.object({ boardId: z.string() });

/**
 * Every boards operation with its request and reply schema: the service registers exactly these
 * and the gateway routes refer to them by name.
 */
export const boardsOperations = {
  'boards.list': { input: boardsListInputSchema, output: boardsListOutputSchema },
  'folders.list': { input: emptyInputSchema, output: z.array(folderDtoSchema) },
  'board.create': { input: boardCreateInputSchema, output: boardDtoSchema },
  'board.get': { input: boardRefSchema, output: boardDtoSchema },
  'board.update': { input: boardUpdateInputSchema, output: boardDtoSchema },
  'board.share': { input: boardRefSchema, output: boardShareSchema },
  'board.grant': { input: boardGrantInputSchema, output: boardShareSchema },
  'boards.trash': { input: boardIdsInputSchema, output: boardsBatchReplySchema },
  'boards.restore': { input: boardIdsInputSchema, output: boardsBatchReplySchema },
  'boards.purge': { input: boardIdsInputSchema, output: boardIdsReplySchema },
  'boards.leave': { input: boardIdsInputSchema, output: boardIdsReplySchema },
  'boards.move': { input: moveBoardsInputSchema, output: boardsBatchReplySchema },
  'folder.create': { input: folderCreateInputSchema, output: folderDtoSchema },
  'folder.rename': { input: folderRenameInputSchema, output: folderDtoSchema },
  'folder.delete': { input: folderRefSchema, output: folderDeleteReplySchema },
  'access.check': { input: accessCheckInputSchema, output: accessCheckReplySchema },
  'collaboration.usage': { input: collaborationUsageInputSchema, output: collaborationUsageSchema },
  'collaboration.checkpoint': { input: collaborationCheckpointInputSchema, output: collaborationUsageSchema },
  'board.duplicate': { input: boardDuplicateInputSchema, output: boardDuplicateReplySchema },
} as const;
export type BoardsOperation = keyof typeof boardsOperations;
