import { Injectable } from '@nestjs/common';
import { currentBuildInfo } from '@platform/versioning';
import { compareAgentVersions } from '../../app/domain/agent-version';
import { PolicySettingsService } from '../settings/policy-settings.service';
import type { SourceAuthMode } from '../settings/enroll-source-auth.policy';
import { AgentUpdateRepository, type StuckDeviceRow } from './agent-update.repository';
import { comparableVersion, type ComparableVersion } from './agent-version-sql';

/** The agent version the server forces: the enroll source-auth floor under `version_floor`. */
export interface EnforcedFloor {
  readonly required: string;
  readonly since: Date;
  readonly comparable: ComparableVersion;
}

export interface StuckPage {
  floor: EnforcedFloor | null;
  minHours: number;
  items: StuckDeviceRow[];
  total: number;
}

export type NoticeLevel = 'none' | 'info' | 'warning';

export interface PlatformUpdate {
  server: { version: string; commit: string; builtAt: string };
  mode: SourceAuthMode;
  floor: EnforcedFloor | null;
  newestAgentVersion: string | null;
  devicesTotal: number;
  devicesBelowRequired: number;
  devicesOnNewest: number;
  noticeLevel: NoticeLevel;
  notice: string | null;
}

const devicesText = (n: number) => (n === 1 ? '1 device' : `${n} devices`);

/**
 * Agent updates seen from the server (docs/certificate-service/settings.md): which devices a
 * forced agent update holds back, and the platform update notice of the settings page.
 */
@Injectable()
export class AgentUpdateService {
  constructor(
    private readonly repository: AgentUpdateRepository,
    private readonly policies: PolicySettingsService,
  ) {}

  async enforcedFloor(): Promise<{ mode: SourceAuthMode; floor: EnforcedFloor | null }> {
    const { value, updatedAt } = await this.policies.enrollSourceAuth();
    const required = value.minAgentVersion;
    const comparable = required === null ? null : comparableVersion(required);
    if (value.mode !== 'version_floor' || required === null || !comparable || !updatedAt) {
      return { mode: value.mode, floor: null };
    }
    return { mode: value.mode, floor: { required, since: updatedAt, comparable } };
  }

  async stuck(
    query: { minHours: number; limit: number; offset: number },
    now = new Date(),
  ): Promise<StuckPage> {
    const { floor } = await this.enforcedFloor();
    if (!floor) return { floor, minHours: query.minHours, items: [], total: 0 };
    const { items, total } = await this.repository.stuck({
      floor: floor.comparable,
      floorSince: floor.since,
      stuckBefore: new Date(now.getTime() - query.minHours * 3600_000),
      limit: query.limit,
      offset: query.offset,
    });
    return { floor, minHours: query.minHours, items, total };
  }

  async platformUpdate(): Promise<PlatformUpdate> {
    const build = currentBuildInfo();
    const { mode, floor } = await this.enforcedFloor();
    const [versions, devicesTotal, devicesBelowRequired] = await Promise.all([
      this.repository.versions(),
      this.repository.countDevices(),
      floor ? this.repository.countBelow(floor.comparable) : Promise.resolve(0),
    ]);
    let newest: string | null = null;
    for (const { agentVersion } of versions) {
      const c = newest === null ? 1 : compareAgentVersions(agentVersion, newest);
      if (c !== null && c > 0 && comparableVersion(agentVersion)) newest = agentVersion;
    }
    const devicesOnNewest =
      newest === null
        ? 0
        : versions
            .filter((v) => compareAgentVersions(v.agentVersion, newest as string) === 0)
            .reduce((sum, v) => sum + v.devices, 0);
    const result = {
      server: { version: build.version, commit: build.commit, builtAt: build.builtAt },
      mode,
      floor,
      newestAgentVersion: newest,
      devicesTotal,
      devicesBelowRequired,
      devicesOnNewest,
    };
    return { ...result, ...noticeOf(result) };
  }
}

function noticeOf(
  state: Omit<PlatformUpdate, 'noticeLevel' | 'notice'>,
): Pick<PlatformUpdate, 'noticeLevel' | 'notice'> {
  if (state.floor && state.devicesBelowRequired > 0) {
    return {
      noticeLevel: 'warning',
      notice:
        `${devicesText(state.devicesBelowRequired)} report an agent older than the required ` +
        `${state.floor.required} (or no version): their enrollments and renewals are refused ` +
        'until the agent is updated.',
    };
  }
  const behind = state.devicesTotal - state.devicesOnNewest;
  if (state.newestAgentVersion !== null && behind > 0) {
    return {
      noticeLevel: 'info',
      notice: `${devicesText(behind)} run an agent older than ${state.newestAgentVersion}, the newest one reported.`,
    };
  }
  return { noticeLevel: 'none', notice: null };
}
