export { EstIssuer, checkIssued } from './est-issuer';
export { EstClient } from './est-client';
export { EST_AUTH_MODES, EST_LABEL_PATTERN, estOperationUrl } from './est-config';
export type { EstAuthMode, EstIssuerConfig, EstOperation } from './est-config';
export { headerOf } from './est-http';
export type { EstHttp, EstHttpAnswer, EstHttpCall } from './est-http';
export {
  MAX_PKCS7_CERTIFICATES,
  buildCertsOnlyPkcs7,
  decodeBase64Body,
  encodeBase64Body,
  readCertsOnlyPkcs7,
} from './pkcs7-certs';
