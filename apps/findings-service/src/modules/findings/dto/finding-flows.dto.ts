import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CodeFlow, FlowLocation, RelatedLocation } from '@platform/report-parsing';

/** A place the scanner points at (docs/findings-service/sarif.md, Related locations and code flows). */
export class FlowLocationDto {
  @ApiPropertyOptional({ description: 'File path, normalized as the finding path is' })
  path?: string;
  @ApiPropertyOptional({ description: 'Web address, for a location that is one' }) url?: string;
  @ApiPropertyOptional({ minimum: 1 }) start_line?: number;
  @ApiPropertyOptional({ minimum: 1 }) end_line?: number;
  @ApiPropertyOptional({ description: 'Fully qualified logical location (function, class)' })
  logical?: string;
  @ApiPropertyOptional({ description: "The scanner's message for this place (≤ 1000 characters)" })
  message?: string;
}

export class RelatedLocationDto extends FlowLocationDto {
  @ApiPropertyOptional({
    minimum: 0,
    description: "The id the result's message links to: `[text](id)`",
  })
  id?: number;
}

export class CodeFlowStepDto extends FlowLocationDto {
  @ApiProperty({ minimum: 1, description: '1-based position of the step in its thread flow' })
  step!: number;
}

export class ThreadFlowDto {
  @ApiPropertyOptional() message?: string;
  @ApiProperty({ type: [CodeFlowStepDto] }) steps!: CodeFlowStepDto[];
}

export class CodeFlowDto {
  @ApiPropertyOptional() message?: string;
  @ApiProperty({ type: [ThreadFlowDto] }) thread_flows!: ThreadFlowDto[];
}

function location(l: FlowLocation): FlowLocationDto {
  const out: FlowLocationDto = {};
  if (l.path !== undefined) out.path = l.path;
  if (l.url !== undefined) out.url = l.url;
  if (l.start_line !== undefined) out.start_line = l.start_line;
  if (l.end_line !== undefined) out.end_line = l.end_line;
  if (l.logical !== undefined) out.logical = l.logical;
  if (l.message !== undefined) out.message = l.message;
  return out;
}

/** The stored related locations as the API shows them (only the documented members). */
export function relatedLocationDtos(list: readonly RelatedLocation[]): RelatedLocationDto[] {
  return list.map((l) => (l.id === undefined ? location(l) : { id: l.id, ...location(l) }));
}

/** The stored code flows as the API shows them (only the documented members). */
export function codeFlowDtos(list: readonly CodeFlow[]): CodeFlowDto[] {
  return list.map((flow) => ({
    ...(flow.message === undefined ? {} : { message: flow.message }),
    thread_flows: flow.thread_flows.map((thread) => ({
      ...(thread.message === undefined ? {} : { message: thread.message }),
      steps: thread.steps.map((s) => ({ step: s.step, ...location(s) })),
    })),
  }));
}
