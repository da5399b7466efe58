import type { Command } from '../command';
import { findingsList } from './findings';
import { jobsGet, jobsList } from './jobs';
import { login, logout } from './login';
import { devicesList } from './devices';
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
];
