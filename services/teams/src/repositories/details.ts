/** SQL on teams.business_details. */
import { BUSINESS_DETAIL_FIELDS } from '@wb/proto';
import type { BusinessDetailField } from '@wb/proto';
import type { Db } from './db';

export type DetailsRow = Record<BusinessDetailField, string> & { id: number; user_id: number; created_at: Date };

const COLUMNS = `id, user_id, ${BUSINESS_DETAIL_FIELDS.join(', ')}, created_at`;

export async function findDetails(db: Db, userId: number): Promise<DetailsRow | null> {
  const { rows } = await db.query<DetailsRow>(`SELECT ${COLUMNS} FROM business_details WHERE user_id = $1`, [userId]);
  return rows[0] ?? null;
}

/** insert or replace every field */
export async function saveDetails(
  db: Db,
  userId: number,
  values: Record<BusinessDetailField, string>,
  at: Date,
): Promise<DetailsRow> {
  const fields = BUSINESS_DETAIL_FIELDS;
  const params = fields.map((f) => values[f]);
  const placeholders = fields.map((_, i) => `$${i + 2}`).join(', ');
  const updates = fields.map((f) => `${f} = EXCLUDED.${f}`).join(', ');
  const at$ = `$${fields.length + 2}`;
  const { rows } = await db.query<DetailsRow>(
    `INSERT INTO business_details (user_id, ${fields.join(', ')}, created_at, updated_at)
     VALUES ($1, ${placeholders}, ${at$}, ${at$})
     ON CONFLICT (user_id) DO UPDATE SET ${updates}, updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [userId, ...params, at],
  );
  return rows[0]!;
}
