import { invalidInput } from '../../errors/factories.js';

/** A page size or page number the caller gave: a whole number from 1 to `max`, otherwise INVALID_INPUT naming `field`. */
export function pagingNumber(field: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw invalidInput(field, `must be a whole number from 1 to ${max}.`);
  }
  return value;
}
