import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { QueryInt } from '@platform/http';
import type { FindingComment } from '../finding-comment';

export class FindingCommentsQueryDto {
  @QueryInt({ min: 1, max: 500, default: 100 })
  limit?: number;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The page after this comment of the finding',
  })
  @IsOptional()
  @IsUUID()
  after?: string;
}

/** POST and PATCH body: the text, trimmed, 1-4000 characters. */
export class FindingCommentBodyDto {
  @ApiProperty({ minLength: 1, maxLength: 4000, example: 'Reproduced on staging.' })
  @IsString()
  @Matches(/\S/, { message: 'body must not be empty' })
  @MaxLength(4000)
  body!: string;
}

export class CommentAuthorDto {
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'null: user deleted' })
  id!: string | null;
  @ApiProperty({ description: 'e-mail (of the time, when the user was deleted)' }) email!: string;
  @ApiProperty() display_name!: string;
}

export class FindingCommentDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) finding_id!: string;
  @ApiProperty({ type: CommentAuthorDto }) author!: CommentAuthorDto;
  @ApiProperty() body!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) edited_at!: string | null;

  static from(c: FindingComment): FindingCommentDto {
    return {
      id: c.id,
      finding_id: c.findingId,
      author: { id: c.author.id, email: c.author.email, display_name: c.author.displayName },
      body: c.body,
      created_at: c.createdAt.toISOString(),
      edited_at: c.editedAt ? c.editedAt.toISOString() : null,
    };
  }
}
