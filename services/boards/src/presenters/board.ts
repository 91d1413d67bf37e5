/** boards rows → what leaves the service. */
import type {
  AccessCheckReply,
  BoardAccess,
  BoardDto,
  BoardList,
  BoardListItem,
  BoardShare,
  FolderDto,
} from '@wb/proto';
import type { BoardRow } from '../repositories/boards';
import type { FolderRow } from '../repositories/folders';
import type { MemberRow } from '../repositories/members';

export function presentListItem(row: BoardRow): BoardListItem {
  return {
    id: row.id,
    user_id: row.user_id,
    title: row.title,
    folder_id: row.folder_id,
    trashed: row.trashed_at ? row.trashed_at.toISOString() : null,
    updated: row.updated_at.toISOString(),
    ...(row.preview_version ? { preview: Number(row.preview_version) } : {}),
  };
}

const unixSeconds = (d: Date): number => Math.floor(d.getTime() / 1000);

/** GET /api/boards as columns (see BoardList in proto): owned rows, then the shared ones the caller may open */
export function presentBoardList(owned: BoardRow[], shared: BoardRow[], ownerNames: Record<string, string>): BoardList {
  const list: BoardList = {
    owned: { id: [], title: [], folder_id: [], updated: [], trashed: {} },
    shared: { id: [], title: [], user_id: [], owner_name: [], updated: [] },
  };
  const preview: Record<string, number> = {};
  for (const r of owned) {
    list.owned.id.push(r.id);
    list.owned.title.push(r.title);
    list.owned.folder_id.push(r.folder_id);
    list.owned.updated.push(unixSeconds(r.updated_at));
    if (r.trashed_at) list.owned.trashed[r.id] = r.trashed_at.toISOString();
    if (r.preview_version) preview[r.id] = Number(r.preview_version);
  }
  for (const r of shared) {
    list.shared.id.push(r.id);
    list.shared.title.push(r.title);
    list.shared.user_id.push(r.user_id);
    list.shared.owner_name.push(ownerNames[String(r.user_id)] ?? '');
    list.shared.updated.push(unixSeconds(r.updated_at));
    if (r.preview_version) preview[r.id] = Number(r.preview_version);
  }
  // sparse: most boards of a big list have none (yet)
  if (Object.keys(preview).length > 0) list.preview = preview;
  return list;
}

/** GET /api/boards by default (spec §7): whole Boards, owned first, then the shared ones with their owner's name */
export function presentBoards(
  owned: BoardRow[],
  shared: { row: BoardRow; access: BoardAccess }[],
  ownerNames: Record<string, string>,
): BoardDto[] {
  const out = owned.map((row) => presentBoard(row, 'own'));
  for (const { row, access } of shared) {
    out.push({ ...presentBoard(row, access), owner_name: ownerNames[String(row.user_id)] ?? '' });
  }
  return out;
}

/** a board shared with the caller: the owner's folder is none of their business */
export function presentSharedItem(row: BoardRow): BoardListItem {
  return { ...presentListItem(row), folder_id: null };
}

export function presentBoard(row: BoardRow, access: BoardAccess): BoardDto {
  const own = access === 'own';
  return {
    ...(own ? presentListItem(row) : presentSharedItem(row)),
    trashed_count: row.trashed_count,
    background: row.background,
    defaultPermission: row.default_permission,
    deleteOwnOnly: row.delete_own_only,
    created: row.created_at.toISOString(),
    access,
  };
}

export function presentSummary(row: BoardRow): AccessCheckReply['board'] {
  return {
    id: row.id,
    title: row.title,
    ownerId: row.user_id,
    background: row.background,
    defaultPermission: row.default_permission,
    deleteOwnOnly: row.delete_own_only,
  };
}

export function shareUrl(appUrl: string, boardId: string): string {
  return `${appUrl}/boards/${boardId}`;
}

/** `names`: id → display name (null: names unavailable, the members are still listed) */
export function presentShare(
  appUrl: string,
  row: BoardRow,
  members: MemberRow[],
  names: Record<string, string> | null,
): BoardShare {
  return {
    url: shareUrl(appUrl, row.id),
    defaultPermission: row.default_permission,
    deleteOwnOnly: row.delete_own_only,
    members: members.map((m) => ({
      userId: m.user_id,
      name: names?.[m.user_id] ?? null,
      permission: m.permission,
      joined: m.joined_at ? m.joined_at.toISOString() : null,
    })),
  };
}

export function presentFolder(row: FolderRow): FolderDto {
  return { id: row.id, name: row.name };
}
