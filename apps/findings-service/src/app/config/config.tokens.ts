/** Injection token of the process's FindingsConfig. */
export const FINDINGS_CONFIG = Symbol('FINDINGS_CONFIG');
