import type { UpdateProjectSettingsDto } from './dto/project-settings.dto';
import type { ProjectSettingsPatch } from './projects.repository';

/** Maps the settings body to columns; absent keys stay unchanged, `null` clears a deadline. */
export function settingsPatch(body: UpdateProjectSettingsDto): ProjectSettingsPatch {
  const patch: ProjectSettingsPatch = {};
  const days = body.remediation_days;
  if (days?.CRITICAL !== undefined) patch.slaCriticalDays = days.CRITICAL;
  if (days?.HIGH !== undefined) patch.slaHighDays = days.HIGH;
  if (days?.MEDIUM !== undefined) patch.slaMediumDays = days.MEDIUM;
  if (days?.LOW !== undefined) patch.slaLowDays = days.LOW;
  if (days?.INFO !== undefined) patch.slaInfoDays = days.INFO;
  if (body.auto_verify_fixes !== undefined) patch.autoVerifyFixes = body.auto_verify_fixes;
  return patch;
}
