import { KeyAlgorithm } from '../csr/csr.types';
import { x509Time } from '../der/der-time';
import { explicit, sequence } from '../der/der-tlv';
import { PkiError } from '../pki.errors';
import { IssuingAuthority, signedStructure } from './certificate-signer';
import { keyIdentifierOf, subjectKeyIdentifierExtension } from './extensions';
import {
  buildCaTemplate,
  buildExtensionTemplates,
  CaTemplate,
  ExtensionTemplates,
} from './leaf-template';
import { addLifetime, Lifetime, validateLifetime } from './lifetime';
import { isX509Purpose, PURPOSE_PROFILES, X509Purpose } from './purposes';
import { randomSerialNumber } from './serial-number';
import { commonNameSubject } from './subject-name';
import { sidExtension, SubjectAltName, subjectAltNameExtension } from './subject-alt-names';

export interface LeafRequest {
  readonly purpose: X509Purpose;
  /** Device serial or user identity. */
  readonly subjectCommonName: string;
  /** SubjectPublicKeyInfo copied from the verified CSR. */
  readonly publicKeySpkiDer: Buffer;
  readonly keyAlgorithm: KeyAlgorithm;
  readonly subjectAltNames?: readonly SubjectAltName[];
  /** Windows SID for the NTDS CA security extension (strong certificate mapping). */
  readonly sid?: string;
  /** Issuance time; defaults to now. */
  readonly now?: Date;
}

export interface BuiltTbs {
  readonly tbsDer: Buffer;
  readonly serial: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
}

export interface IssuedLeaf {
  readonly certificateDer: Buffer;
  readonly serial: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
}

export interface LeafBuilderOptions {
  /** Lifetime of `wifi` certificates (the only configurable one); default 3 years. */
  readonly wifiLifetime?: Lifetime;
  /** notBefore is set this many seconds before issuance for clock skew; default 300. */
  readonly backdateSeconds?: number;
  /** URLs placed in a CRL distribution points extension of every leaf. */
  readonly crlDistributionUrls?: readonly string[];
  /** AIA `caIssuers` URLs (the issuing CA certificate) placed in every leaf. */
  readonly caIssuersUrls?: readonly string[];
  /** AIA `ocsp` responder URLs placed in every leaf. */
  readonly ocspUrls?: readonly string[];
}

/**
 * Builds end-entity certificates from precomputed DER: per certificate only the serial,
 * validity, subject, SPKI, SKI, SAN and SID are encoded. Validity never extends past the
 * issuing CA's notAfter (clamped).
 */
export class LeafCertificateBuilder {
  private readonly ca: CaTemplate;
  private readonly extensions: ExtensionTemplates;
  private readonly lifetimes: Readonly<Record<X509Purpose, Lifetime>>;
  private readonly backdateMs: number;

  constructor(
    private readonly authority: IssuingAuthority,
    options: LeafBuilderOptions = {},
  ) {
    this.ca = buildCaTemplate(authority);
    this.extensions = buildExtensionTemplates(authority, options);
    this.lifetimes = {
      wifi: validateLifetime(options.wifiLifetime ?? PURPOSE_PROFILES.wifi.defaultLifetime),
      user_mtls: PURPOSE_PROFILES.user_mtls.defaultLifetime,
      ad_logon: PURPOSE_PROFILES.ad_logon.defaultLifetime,
      vpn: PURPOSE_PROFILES.vpn.defaultLifetime,
    };
    const backdate = options.backdateSeconds ?? 300;
    if (!Number.isInteger(backdate) || backdate < 0 || backdate > 86_400) {
      throw new PkiError('lifetime_invalid', 'backdateSeconds must be 0..86400');
    }
    this.backdateMs = backdate * 1000;
  }

  lifetimeOf(purpose: X509Purpose): Lifetime {
    return this.lifetimes[purpose];
  }

  buildTbs(request: LeafRequest): BuiltTbs {
    if (!isX509Purpose(request.purpose)) {
      throw new PkiError('purpose_unsupported', `purpose ${String(request.purpose)} is not X.509`);
    }
    const now = request.now ?? new Date();
    const issuedAt = Math.floor(now.getTime() / 1000) * 1000;
    if (issuedAt >= this.authority.notAfter.getTime()) {
      throw new PkiError('ca_expired', 'the issuing CA has expired');
    }
    if (issuedAt < this.authority.notBefore.getTime()) {
      throw new PkiError('ca_not_yet_valid', 'the issuing CA is not valid yet (check the clock)');
    }
    const notBefore = new Date(
      Math.max(issuedAt - this.backdateMs, this.authority.notBefore.getTime()),
    );
    const wanted = addLifetime(new Date(issuedAt), this.lifetimes[request.purpose]);
    const notAfter = wanted > this.authority.notAfter ? this.authority.notAfter : wanted;
    const serial = randomSerialNumber();
    const tbsDer = sequence(
      this.ca.version,
      serial.der,
      this.ca.algorithmAndIssuer,
      sequence(x509Time(notBefore), x509Time(notAfter)),
      commonNameSubject(request.subjectCommonName),
      request.publicKeySpkiDer,
      explicit(3, sequence(...this.variableExtensions(request))),
    );
    return { tbsDer, serial: serial.hex, notBefore, notAfter };
  }

  issue(request: LeafRequest): IssuedLeaf {
    const { tbsDer, serial, notBefore, notAfter } = this.buildTbs(request);
    return {
      certificateDer: signedStructure(tbsDer, this.authority.signer),
      serial,
      notBefore,
      notAfter,
    };
  }

  private variableExtensions(request: LeafRequest): Buffer[] {
    const profile = PURPOSE_PROFILES[request.purpose];
    const sans = request.subjectAltNames ?? [];
    if (profile.requiresUpn && !sans.some((san) => san.type === 'upn')) {
      throw new PkiError('san_invalid', `${request.purpose} certificates need a UPN`);
    }
    let keyId: Buffer;
    try {
      keyId = keyIdentifierOf(request.publicKeySpkiDer);
    } catch {
      throw new PkiError('csr_invalid', 'public key is not a SubjectPublicKeyInfo');
    }
    const parts = [
      this.extensions[request.purpose][request.keyAlgorithm],
      subjectKeyIdentifierExtension(keyId),
    ];
    if (sans.length > 0) parts.push(subjectAltNameExtension(sans));
    if (request.sid !== undefined) parts.push(sidExtension(request.sid));
    return parts;
  }
}
