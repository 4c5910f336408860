/**
 * Object keys are opaque to this package, but a key has to survive being put into a
 * URL path and sent by curl: HTTP clients drop `.` and `..` segments and some servers
 * merge `//`, which would change the path after it was signed. So a key is a list of
 * non-empty `/`-separated segments, none of them `.` or `..`, with no control characters,
 * at most 1024 bytes (S3's limit).
 */
export const MAX_KEY_BYTES = 1024;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** Encodes like RFC 3986 (and SigV4): everything but A-Z a-z 0-9 - . _ ~ is percent-encoded. */
export const encodeRfc3986 = (value: string): string =>
  encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/** The problem with a key, or null when it is usable. */
export const keyProblem = (key: string): string | null => {
  if (key === '') return 'the key is empty';
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES)
    return `the key is longer than ${MAX_KEY_BYTES} bytes`;
  if (CONTROL_CHARACTER.test(key)) return 'the key contains a control character';
  try {
    encodeURIComponent(key);
  } catch {
    return 'the key is not well-formed Unicode';
  }
  for (const segment of key.split('/')) {
    if (segment === '') return 'the key has an empty segment (a leading, trailing or double "/")';
    if (segment === '.' || segment === '..') return 'the key has a "." or ".." segment';
  }
  return null;
};

/** The key as it appears in a path-style URL (`/bucket/<this>`): each segment encoded. */
export const encodeKeyPath = (key: string): string => key.split('/').map(encodeRfc3986).join('/');
