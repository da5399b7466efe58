import type { Command } from '../command';
import { findingsList } from './findings';
import { jobsGet, jobsList } from './jobs';
import { login, logout } from './login';
import { auditExport } from './audit';
import { certificatesRevoke } from './certificates';
import { devicesGet, devicesRevoke, devicesUnblock } from './device-actions';
import { devicesList } from './devices';
import { licenseActivate, licenseStatus } from './license';
import { devicesDownloadLogs, devicesLogs, devicesRequestLogs } from './device-logs';
import { suppressCreate, suppressDelete, suppressList } from './suppress';
import { findingsGet, findingsStatus } from './triage';
import { requestsApprove, requestsList, requestsReject } from './requests';
import { upload } from './upload';
import { completionCommand } from './completion';

export const COMMANDS: Command[] = [
  login,
  logout,
  upload,
  jobsList,
  jobsGet,
  findingsList,
  findingsGet,
  findingsStatus,
  suppressCreate,
  suppressList,
  suppressDelete,
  requestsList,
  requestsApprove,
  requestsReject,
  devicesList,
  devicesGet,
  devicesUnblock,
  devicesRevoke,
  devicesRequestLogs,
  devicesLogs,
  devicesDownloadLogs,
  certificatesRevoke,
  licenseStatus,
  licenseActivate,
  auditExport,
  completionCommand(() => COMMANDS),
];
