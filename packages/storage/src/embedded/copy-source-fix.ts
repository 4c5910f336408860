import { createRequire } from 'node:module';

/**
 * s3rver 5.0.0 reads the copy source with decodeURI, which leaves reserved characters
 * encoded: a copy from a key containing any of `? # & + = ; : @ $ ,` (an ISO timestamp,
 * say) looks for a key spelled with `%3A`... and answers NoSuchKey. S3 and MinIO decode
 * the header fully. This wraps s3rver's copy handler so that decodeURI yields the full
 * decoding. It runs after s3rver has verified the signature (the header is signed, so
 * it must not change before that). routes.js looks the handler up on the module object
 * at each request, which is what makes the wrap take effect.
 */
interface CopyContext {
  readonly headers: Record<string, string | string[] | undefined>;
}

interface ObjectController {
  putObjectCopy: (this: unknown, ctx: CopyContext) => Promise<void>;
}

const require = createRequire(import.meta.url);
const PATCHED = Symbol.for('cp.storage.s3rver-copy-source-fix');

export const fixCopySourceDecoding = (): void => {
  const controller = require('@20minutes/s3rver/lib/controllers/object.js') as ObjectController &
    Record<symbol, boolean>;
  if (controller[PATCHED] === true) return;
  const original = controller.putObjectCopy;
  if (typeof original !== 'function') {
    throw new Error(
      '@20minutes/s3rver changed: lib/controllers/object.js has no putObjectCopy to wrap. ' +
        'Check src/embedded/copy-source-fix.ts against the installed version.',
    );
  }
  controller.putObjectCopy = function putObjectCopy(ctx) {
    const source = ctx.headers['x-amz-copy-source'];
    if (typeof source === 'string') {
      try {
        // decodeURI(encodeURI(x)) === x for every x, so s3rver ends up with the decoded key.
        ctx.headers['x-amz-copy-source'] = encodeURI(decodeURIComponent(source));
      } catch {
        // Malformed escapes: leave the header as it came, s3rver answers for it.
      }
    }
    return original.call(this, ctx);
  };
  controller[PATCHED] = true;
};
