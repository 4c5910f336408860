import { errors, type Adapter, type AdapterFactory } from 'oidc-provider';
import type { OidcStorage } from '@cp/domain';

/**
 * oidc-provider's adapter over our storage port. The one addition: consuming a
 * code or refresh token that another request consumed first answers
 * `invalid_grant`, so two concurrent uses of one code or refresh token can never
 * both succeed (oidc-provider checks "consumed" before consuming, which races).
 */
export function providerAdapter(storage: OidcStorage): AdapterFactory {
  return (model: string): Adapter => {
    const inner = storage.adapterFor(model);
    return {
      upsert: (id, payload, expiresIn) => inner.upsert(id, payload, expiresIn),
      find: (id) => inner.find(id),
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
