import { FindingsError } from '../../app/errors/findings-error';

export type ProjectsErrorCode =
  'project_not_found' | 'member_not_found' | 'user_not_found' | 'conflict' | 'access_denied';

export class ProjectsError extends FindingsError<ProjectsErrorCode> {
  constructor(code: ProjectsErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
