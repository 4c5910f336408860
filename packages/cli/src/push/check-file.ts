import { defaultDomainConfig, inspectHtmlDocument, isDomainError } from '@cp/domain';
import { CliError, ExitCode } from '../cli/errors.js';

export interface CheckedFile {
  readonly size: number;
  readonly sha256: string;
}

/**
 * The checks confirm_upload makes, before anything is sent (the domain's own rule): an HTML document
 * within the default upload limit. A server configured with another limit still has the last word.
 */
export function checkComponentFile(path: string, bytes: Uint8Array): CheckedFile {
  const max = defaultDomainConfig.maxUploadBytes;
  if (bytes.byteLength > max) {
    throw new CliError('UPLOAD_TOO_LARGE', `${path} is ${bytes.byteLength} bytes; the upload limit is ${max} bytes. Make it smaller (minify, move large assets to a CDN).`, ExitCode.Failure);
  }
  try {
    const document = inspectHtmlDocument(bytes);
    return { size: document.size, sha256: document.sha256 };
  } catch (error) {
    if (isDomainError(error)) throw new CliError(error.code, `${path}: ${error.message.replace(/ Upload the built .*$/, '')}`, ExitCode.Failure);
    throw error;
  }
}
