/** `X.Y` of a `X.Y.BUILD+COMMIT` version (the services' build stamp, libs/versioning). */
export function majorMinor(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}
