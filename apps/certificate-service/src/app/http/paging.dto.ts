import { QueryInt } from '@platform/http';

export const MAX_PAGE = 100_000;
export const MAX_PAGE_SIZE = 500;

/** `page` (1..100 000) and `limit` (1..500, default 50) of the admin lists. */
export class PagingQueryDto {
  @QueryInt({ min: 1, max: MAX_PAGE, default: 1 })
  page?: number;

  @QueryInt({ min: 1, max: MAX_PAGE_SIZE, default: 50 })
  limit?: number;
}

export function pageOf(query: PagingQueryDto): { page: number; limit: number; offset: number } {
  const page = query.page ?? 1;
  const limit = query.limit ?? 50;
  return { page, limit, offset: (page - 1) * limit };
}
