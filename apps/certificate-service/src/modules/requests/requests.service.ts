import { Injectable } from '@nestjs/common';
import { RequestsRepository, type RequestFilter, type RequestRow } from './requests.repository';

/** Admin reading of certificate requests (approval and rejection live elsewhere). */
@Injectable()
export class RequestsService {
  constructor(private readonly requests: RequestsRepository) {}

  page(
    filter: RequestFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: RequestRow[]; total: number }> {
    return this.requests.page(filter, limit, offset);
  }

  export(filter: RequestFilter, max: number): Promise<RequestRow[]> {
    return this.requests.all(filter, max);
  }
}
