/** Why an attestation was refused; the reason is for the server log, never the client. */
export class AppAttestRefusal extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'AppAttestRefusal';
  }
}
