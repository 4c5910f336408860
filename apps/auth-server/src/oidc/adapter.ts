import { errors, type Adapter, type AdapterFactory } from 'oidc-provider';
import type { OidcStorage } from '@cp/domain';
import type { ClientDocuments } from '../cimd/client-documents.js';
import { isUrlClientId } from '../cimd/client-id-url.js';
import { CimdRefusal } from '../cimd/refusal.js';

/**
 * oidc-provider's adapter over our storage port. The one addition: consuming a
 * code or refresh token that another request consumed first answers
 * `invalid_grant`, so two concurrent uses of one code or refresh token can never
 * both succeed (oidc-provider checks "consumed" before consuming, which races).
 *
 * A client whose id is a URL is never stored: its metadata is the document at that URL
 * (cimd/), and a refused document answers `invalid_client` saying why. Registered
 * clients get random ids, never URLs, so the two never meet.
 */
export function providerAdapter(storage: OidcStorage, documents: ClientDocuments): AdapterFactory {
  return (model: string): Adapter => {
    const inner = storage.adapterFor(model);
    const find = model === 'Client' ? (id: string) => (isUrlClientId(id) ? documentClient(documents, id) : inner.find(id)) : (id: string) => inner.find(id);
    return {
      upsert: (id, payload, expiresIn) => inner.upsert(id, payload, expiresIn),
      find,
      findByUid: (uid) => inner.findByUid(uid),
      findByUserCode: (userCode) => inner.findByUserCode(userCode),
      destroy: (id) => inner.destroy(id),
      revokeByGrantId: (grantId) => inner.revokeByGrantId(grantId),
      async consume(id) {
        if (!(await inner.consume(id))) throw new errors.InvalidGrant(`${model} was already used`);
      },
    };
  };
}

async function documentClient(documents: ClientDocuments, clientId: string) {
  try {
    return await documents.resolve(clientId);
  } catch (error) {
    if (error instanceof CimdRefusal) throw new errors.InvalidClient(error.description);
    throw error;
  }
}
