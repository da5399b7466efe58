/** The agent's version, sent as `agent_version` (dotted, as the service's version floor reads it). */
export const AGENT_VERSION = '0.1.0';
