import { createHash, randomBytes } from 'node:crypto';
import { Limits } from './limits.js';
import { normalizeGivenName } from './text.js';

/** Secrets read `cpk_` + 43 base64url characters (256 random bits), so they are recognisable in a leak scan. */
const SECRET = /^cpk_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = 10;

export const newPreviewKeySecret = (): string => `cpk_${randomBytes(32).toString('base64url')}`;

/** A fast hash suffices: the secret has full entropy, so there is nothing to guess from the hash. */
export const hashPreviewKey = (secret: string): string =>
  createHash('sha256').update(secret).digest('hex');

export const previewKeyPrefix = (secret: string): string => secret.slice(0, PREFIX_LENGTH);

/** Whether a presented value can be a preview key at all (spares a lookup for junk). */
export const isPreviewKeySecret = (value: string): boolean => SECRET.test(value);

export const normalizePreviewKeyName = (raw: string): string =>
  normalizeGivenName(raw, 'preview key', Limits.previewKeyNameMaxLength, 'give the preview key a name, for example the host that will use it.');
