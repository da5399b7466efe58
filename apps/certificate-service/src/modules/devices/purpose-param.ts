import { isPurpose, type Purpose } from '../../app/domain/purposes';
import { DevicesError } from './devices.errors';

/** A purpose taken from a path segment. */
export function purposeParam(value: string): Purpose {
  if (!isPurpose(value)) throw new DevicesError('invalid_purpose');
  return value;
}
