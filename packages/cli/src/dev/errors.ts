/** Why the dev server could not start; `message` says what to do. */
export type DevServerErrorCode = 'PORT_IN_USE' | 'FILE_NOT_FOUND' | 'HOST_SDK_MISSING' | 'INVALID_OPTIONS';

export class DevServerError extends Error {
  override readonly name = 'DevServerError';

  constructor(
    readonly code: DevServerErrorCode,
    message: string,
  ) {
    super(message);
  }
}
