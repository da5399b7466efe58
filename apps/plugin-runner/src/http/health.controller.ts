import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ServingStatusBoard } from '../grpc/serving-status-board';
import { PROCESS_SERVICE } from '../app/runner-identity';

/** Liveness/readiness for probes: 200 while serving, 503 once shutdown has begun. */
@Controller()
export class HealthController {
  constructor(private readonly board: ServingStatusBoard) {}

  @Get('health')
  health(@Res({ passthrough: true }) reply: FastifyReply): { status: string } {
    const serving = this.board.get(PROCESS_SERVICE) === 'SERVING';
    if (!serving) void reply.status(503);
    return { status: serving ? 'ok' : 'unavailable' };
  }
}
