import { Module } from '@nestjs/common';
import { OutboundHttpClient } from './outbound-http.client';

/**
 * Provides `OutboundHttpClient`, the service's outgoing calls through the shared guard
 * (@platform/egress). A feature module that calls out imports this module.
 */
@Module({
  providers: [OutboundHttpClient],
  exports: [OutboundHttpClient],
})
export class OutboundHttpModule {}
