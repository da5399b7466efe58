import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PeopleSearchController } from './people-search.controller';
import { PeopleSearchRepository } from './people-search.repository';
import { PeopleSearchService } from './people-search.service';
import { ProjectAccessService } from './project-access.service';
import { ProjectMemberEntity } from './project-member.entity';
import { ProjectMembersController } from './project-members.controller';
import { ProjectMembersRepository } from './project-members.repository';
import { ProjectMembersService } from './project-members.service';
import { ProjectEntity } from './project.entity';
import { ProjectsController } from './projects.controller';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';
import { VisibilityService } from './visibility.service';

@Module({
  imports: [TypeOrmModule.forFeature([ProjectEntity, ProjectMemberEntity])],
  controllers: [ProjectsController, ProjectMembersController, PeopleSearchController],
  providers: [
    ProjectsRepository,
    ProjectMembersRepository,
    ProjectsService,
    ProjectMembersService,
    ProjectAccessService,
    VisibilityService,
    PeopleSearchRepository,
    PeopleSearchService,
  ],
  exports: [ProjectsService, ProjectAccessService, VisibilityService],
})
export class ProjectsModule {}
