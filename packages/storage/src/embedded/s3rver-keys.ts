import { awsAccounts } from './s3rver-module.js';

/**
 * s3rver takes no credentials option: it checks signatures against one process-wide
 * registry that starts out holding the well-known pair S3RVER/S3RVER. Each embedded
 * server registers its own pair here and releases it on close; keys nobody registered
 * (the built-in one) are revoked, so only configured credentials are accepted.
 * Two servers in one process may share an access key only with the same secret.
 */
const inUse = new Map<string, { readonly secretKey: string; users: number }>();

const revoke = (accessKey: string): void =>
  awsAccounts.registry.get(accessKey)?.revokeAccessKey(accessKey);

/** Registers a key pair; returns the function that releases it. */
export const acquireKeyPair = (accessKey: string, secretKey: string): (() => void) => {
  const entry = inUse.get(accessKey) ?? { secretKey, users: 0 };
  if (entry.secretKey !== secretKey) {
    throw new Error(
      `Another embedded S3 server in this process already uses access key "${accessKey}" with a ` +
        'different secret; s3rver keeps one key registry per process. Use another access key.',
    );
  }
  entry.users += 1;
  inUse.set(accessKey, entry);
  awsAccounts.DUMMY_ACCOUNT.createKeyPair(accessKey, secretKey);
  for (const registered of [...awsAccounts.registry.keys()]) {
    if (!inUse.has(registered)) revoke(registered);
  }

  let released = false;
  return () => {
    if (released) return;
    released = true;
    entry.users -= 1;
    if (entry.users === 0) {
      inUse.delete(accessKey);
      revoke(accessKey);
    }
  };
};
