import type { Command } from '../command';
import { findingsList } from './findings';
import { jobsGet, jobsList } from './jobs';
import { login, logout } from './login';
import { auditExport } from './audit';
import { certificatesRevoke } from './certificates';
import { devicesGet, devicesRevoke, devicesUnblock } from './device-actions';
import { devicesList } from './devices';
import { licenseStatus } from './license';
import { requestsApprove, requestsList, requestsReject } from './requests';
import { upload } from './upload';

export const COMMANDS: Command[] = [
  login,
  logout,
  upload,
  jobsList,
  jobsGet,
  findingsList,
  requestsList,
  requestsApprove,
  requestsReject,
  devicesList,
  devicesGet,
  devicesUnblock,
  devicesRevoke,
  certificatesRevoke,
  licenseStatus,
  auditExport,
];
