import { Module } from '@nestjs/common';
import { SshKeyEvents } from './ssh-key-events';
import { SshKeyRegistry } from './ssh-key-registry.service';
import { SshKeysRepository } from './ssh-keys.repository';
import { SshRevocationFeed } from './ssh-revocation-feed.service';
import { SshRevocationsRepository } from './ssh-revocations.repository';

/** Registered raw SSH keys, their states, and the revocation feed. */
@Module({
  providers: [
    SshKeysRepository,
    SshRevocationsRepository,
    SshKeyRegistry,
    SshRevocationFeed,
    SshKeyEvents,
  ],
  exports: [SshKeyRegistry, SshRevocationFeed, SshKeyEvents],
})
export class SshKeysModule {}
