import { Inject, Injectable, Logger } from '@nestjs/common';
import { SealedBox } from '@platform/auth';
import { Clock } from '../../app/clock';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { AutoClosureService } from '../auto-closure/auto-closure.service';
import { parseTimestamp, signatureMatches } from '../auto-closure/body-signature';
import type { RecordedVerdicts, ScannerVerdict } from '../auto-closure/verifications.repository';
import { CallbackReplayGuard, ReplayStoreUnavailable } from './callback-replay.guard';
import { ScannerCallbackKeysRepository } from './scanner-callback-keys.repository';
import { CALLBACK_KEY_PURPOSE, keyState } from './scanner-callback-keys.service';
import { ScannerCallbacksError } from './scanner-callbacks.errors';

/** The signature headers of a callback (docs/findings-service/auto-closure.md#callbacks). */
export interface CallbackSignature {
  keyId?: string;
  timestamp?: string;
  signature?: string;
}

/**
 * Verifies a scanner callback — known key, inside its validity (a rotated key until its window
 * ends), timestamp within SCANNER_CALLBACK_MAX_SKEW_SECONDS, HMAC over timestamp + exact body,
 * never seen before (shared memory in Redis) — then hands the answers to the automatic closure.
 */
@Injectable()
export class ScannerCallbacksService {
  private readonly logger = new Logger('ScannerCallbacks');
  private readonly box: SealedBox;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly keys: ScannerCallbackKeysRepository,
    private readonly replay: CallbackReplayGuard,
    private readonly autoClosure: AutoClosureService,
    private readonly clock: Clock,
  ) {
    this.box = new SealedBox(config.autoClosure.secretsKey, CALLBACK_KEY_PURPOSE);
  }

  async receive(
    signed: CallbackSignature,
    rawBody: Uint8Array,
    verdicts: ScannerVerdict[],
  ): Promise<RecordedVerdicts & { closed: number }> {
    const { keyId, timestamp, signature } = signed;
    if (!keyId || !timestamp || !signature) {
      throw new ScannerCallbacksError('callback_signature_missing');
    }
    const key = keyId.length <= 32 ? await this.keys.findByKeyId(keyId) : undefined;
    if (!key) throw new ScannerCallbacksError('callback_key_unknown');
    const now = this.clock.now();
    if (keyState(key, now) === 'retired' || keyState(key, now) === 'expired') {
      throw new ScannerCallbacksError('callback_key_retired');
    }
    const skew = this.config.autoClosure.callbackMaxSkewSeconds;
    const seconds = parseTimestamp(timestamp);
    if (seconds === undefined || Math.abs(now.getTime() / 1000 - seconds) > skew) {
      throw new ScannerCallbacksError('callback_timestamp_stale', { max_skew_seconds: skew });
    }
    const secret = this.box.open(key.secretSealed);
    const matched =
      typeof secret === 'string' && signature.length <= 1024
        ? signature
            .split(',')
            .map((s) => s.trim())
            .find((s) => signatureMatches(secret, seconds, rawBody, s))
        : undefined;
    if (!matched) throw new ScannerCallbacksError('callback_signature_invalid');
    let first: boolean;
    try {
      first = await this.replay.firstSighting(key.keyId, matched);
    } catch (error) {
      if (error instanceof ReplayStoreUnavailable) {
        this.logger.warn(`callback refused: replay store unavailable (${error.message})`);
        throw new ScannerCallbacksError('service_unavailable');
      }
      throw error;
    }
    if (!first) throw new ScannerCallbacksError('callback_replayed');
    await this.keys.touch(key.id, now);
    return this.autoClosure.recordVerdicts(verdicts, {
      keyId: key.keyId,
      projectId: key.projectId,
    });
  }
}
