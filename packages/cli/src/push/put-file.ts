import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { CliError, ExitCode, networkError } from '../cli/errors.js';

const CHUNK_BYTES = 64 * 1024;

/**
 * PUTs the file to the presigned URL with the headers upload_component names, reporting the bytes sent as
 * they leave (fetch reports no upload progress). The URL is a bearer credential for one object: it is
 * never printed.
 */
export async function putFile(
  url: string,
  bytes: Uint8Array,
  headers: Record<string, string>,
  onProgress: (sent: number, total: number) => void,
): Promise<void> {
  const target = new URL(url);
  const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
    method: 'PUT',
    headers: { ...headers, 'content-length': String(bytes.byteLength) },
  });
  const answered = new Promise<number>((resolve, reject) => {
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
  // Awaited below; marked handled so a failure while writing is not also an unhandled rejection.
  answered.catch(() => undefined);
  try {
    for (let offset = 0; offset < bytes.byteLength; offset += CHUNK_BYTES) {
      const chunk = bytes.subarray(offset, offset + CHUNK_BYTES);
      if (!request.write(chunk)) {
        await new Promise((resolve, reject) => {
          request.once('drain', resolve);
          request.once('error', reject);
        });
      }
      onProgress(Math.min(offset + CHUNK_BYTES, bytes.byteLength), bytes.byteLength);
    }
    request.end();
    const status = await answered;
    if (status < 200 || status >= 300) {
      throw new CliError('UPLOAD_FAILED', `The storage refused the file (HTTP ${status}); the upload URL may have expired, or the file is over the server's limit.`, ExitCode.Failure);
    }
  } catch (error) {
    request.destroy();
    if (error instanceof CliError) throw error;
    throw networkError('the storage', error);
  }
}
