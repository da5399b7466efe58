/** Component name in `/version`, logs and metrics. */
export const COMPONENT = 'plugin-runner';

/** gRPC health service names: `""` is the whole process, by the health protocol's convention. */
export const PROCESS_SERVICE = '';
export const RUNNER_SERVICE = 'plugin-runner';
