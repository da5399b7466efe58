import type { Command } from '../command';
import { findingsList, jobsGet } from './findings';
import { login, logout } from './login';
import { devicesList } from './devices';
import { requestsApprove, requestsList, requestsReject } from './requests';
import { upload } from './upload';

export const COMMANDS: Command[] = [
  login,
  logout,
  upload,
  jobsGet,
  findingsList,
  requestsList,
  requestsApprove,
  requestsReject,
  devicesList,
];
