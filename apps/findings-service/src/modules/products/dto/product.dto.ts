import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { ProductEntity } from '../product.entity';

export class CreateProductDto {
  @ApiProperty({ example: 'payments-api' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'https://github.com/acme/payments-api.git',
    description: 'https, ssh (git@host:path) or .git forms; matched normalized by /products/lookup',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  repository_url?: string | null;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @IsBoolean()
  scan_enabled?: boolean;
}

/** Every field optional; `null` clears description or repository_url. */
export class UpdateProductDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  repository_url?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  scan_enabled?: boolean;
}

export class ProductDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ nullable: true, type: String }) repository_url!: string | null;
  @ApiProperty() scan_enabled!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(product: ProductEntity): ProductDto {
    return {
      id: product.id,
      project_id: product.projectId,
      name: product.name,
      description: product.description,
      repository_url: product.repositoryUrl,
      scan_enabled: product.scanEnabled,
      created_at: product.createdAt.toISOString(),
      updated_at: product.updatedAt.toISOString(),
    };
  }
}

export class ProductLookupQueryDto {
  @ApiProperty({ example: 'git@github.com:acme/payments-api.git' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2_000)
  repository_url!: string;
}
