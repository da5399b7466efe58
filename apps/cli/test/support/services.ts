// The two services' own test support, reused to start them in-process on the real PostgreSQL
// and Redis stack (as the device agent's tests do), and the report fixtures their tests use: the
// CLI's tests import them from here only.
/* eslint-disable @nx/enforce-module-boundaries */
export { fixturePath } from '@platform/report-parsing/testing';
export {
  bearer,
  createProduct,
  createProject,
} from '../../../findings-service/test/support/catalog';
export {
  startIngestion,
  type IngestionStack,
} from '../../../findings-service/test/support/ingestion-env';
export { freshServiceAccount, grant } from '../../../findings-service/test/support/sessions';
export { startTestApp as startFindingsApp } from '../../../findings-service/test/support/test-app';
export {
  ADMIN_EMAIL as FINDINGS_ADMIN_EMAIL,
  ADMIN_PASSWORD as FINDINGS_ADMIN_PASSWORD,
} from '../../../findings-service/test/support/test-app';
export { enrollDevice, startEnrollApp } from '../../../certificate-service/test/fixtures/enroll';
export { createUser, loginAdmin } from '../../../certificate-service/test/support/sessions';
export {
  ADMIN_EMAIL as CERT_ADMIN_EMAIL,
  ADMIN_PASSWORD as CERT_ADMIN_PASSWORD,
  type TestApp as CertTestApp,
} from '../../../certificate-service/test/support/test-app';
export { Vendor } from '../../../certificate-service/test/fixtures/license';
export { IssuerRegistry } from '../../../certificate-service/src/modules/ca/issuer-registry';
