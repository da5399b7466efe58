import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { ListFindingsQueryDto } from '../dto/list-findings.query.dto';
import { GROUP_AXES, type GroupAxis } from './group-axis';
import type { GroupAxisCount } from './group-axes.service';

export class GroupAxisDto {
  @ApiProperty({ enum: GROUP_AXES }) axis!: GroupAxis;
  @ApiProperty({
    description:
      'The shared value: the component name (package, every version), the host, the CVE, or the rule id (rule; its scanner in `scanner`)',
  })
  key!: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'rule axis: the scanner' })
  scanner!: string | null;
  @ApiProperty({ description: 'Members of the group in the same project, the finding included' })
  count!: number;
  @ApiProperty({ description: 'count - 1: the other findings of the group' })
  neighbours!: number;

  static from(a: GroupAxisCount): GroupAxisDto {
    const rule = a.match.axis === 'rule' ? a.match : undefined;
    return {
      axis: a.axis,
      key: rule ? rule.ruleId : a.match.axis !== 'rule' ? a.match.key : '',
      scanner: rule ? rule.scanner : null,
      count: a.count,
      neighbours: a.count - 1,
    };
  }
}

export class GroupAxesDto {
  @ApiProperty({ format: 'uuid' }) finding_id!: string;
  @ApiProperty({
    type: [GroupAxisDto],
    description:
      'Only the axes on which the finding has neighbours, in the order package, host, cve, rule',
  })
  axes!: GroupAxisDto[];
}

/** GET /findings/{id}/group-axes/members: the axis, then the list's parameters. */
export class GroupMembersQueryDto extends ListFindingsQueryDto {
  @ApiProperty({ enum: GROUP_AXES })
  @IsIn(GROUP_AXES)
  axis!: GroupAxis;
}

/** A finding's group as the selection of POST /findings/bulk-status. */
export class GroupSelectionDto {
  @ApiProperty({ format: 'uuid', description: 'A finding of the group' })
  @IsUUID()
  finding_id!: string;

  @ApiProperty({ enum: GROUP_AXES })
  @IsIn(GROUP_AXES)
  axis!: GroupAxis;
}
