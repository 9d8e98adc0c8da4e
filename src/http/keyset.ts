/**
 * The cursors of one keyset page, the house convention of cursor-paged lists (conversations,
 * webhook deliveries): `next` walks towards older rows, `previous` back towards newer ones.
 * Forward, there is a next page when the query found more, and a previous one when a cursor was
 * given; backward, the other way round.
 */
export function pageCursors(
  rows: readonly { id: string }[],
  page: { hasMore: boolean; direction: 'next' | 'previous'; fromCursor: boolean },
): { nextCursor: string | null; prevCursor: string | null } {
  const first = rows[0]?.id ?? null;
  const last = rows.at(-1)?.id ?? null;
  if (page.direction === 'next') return { nextCursor: page.hasMore ? last : null, prevCursor: page.fromCursor ? first : null };
  return { nextCursor: page.fromCursor ? last : null, prevCursor: page.hasMore ? first : null };
}
