import { Inject, Injectable, Optional } from '@nestjs/common';
import { CRL_SOURCE, type CrlSource, type CurrentCrl } from './crl-source';
import { EnrollmentError } from './enrollment.errors';

/** `POST /enroll/crl`: the current CRLs for clients outside the domain. */
@Injectable()
export class CrlDistributionService {
  constructor(@Optional() @Inject(CRL_SOURCE) private readonly source?: CrlSource) {}

  async current(): Promise<readonly CurrentCrl[]> {
    const crls = this.source ? await this.source.current() : [];
    if (crls.length === 0) throw new EnrollmentError('crl_unavailable');
    return crls;
  }
}
