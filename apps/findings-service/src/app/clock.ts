import { Injectable } from '@nestjs/common';

/**
 * The time of every lifecycle and SLA decision (status changes, deadlines, periodic tasks).
 * One instance per process (CoreModule); tests replace `now` on it (`jest.spyOn(app.get(Clock),
 * 'now')`) instead of sleeping. SQL of those paths takes this time as a parameter, never `now()`.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
