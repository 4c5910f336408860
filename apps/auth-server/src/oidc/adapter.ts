import Provider, { errors, type Adapter, type AdapterFactory, type KoaContextWithOIDC } from 'oidc-provider';
import type { OidcAdapter, OidcPayload, OidcStorage } from '@cp/domain';
import type { ClientDocuments } from '../cimd/client-documents.js';
import { isUrlClientId } from '../cimd/client-id-url.js';
import { CimdRefusal } from '../cimd/refusal.js';
import type { DevicePolls } from '../security/device-polls.js';

export interface AdapterDeps {
  readonly storage: OidcStorage;
  readonly documents: ClientDocuments;
  readonly devicePolls: DevicePolls;
  /** How long an expired device code stays readable, so it answers `expired_token` rather than "not found". */
  readonly expiredDeviceCodeSeconds: number;
}

/** The request oidc-provider is serving (its AsyncLocalStorage), if any. */
const currentRequest = (): KoaContextWithOIDC | undefined => (Provider as unknown as { ctx?: KoaContextWithOIDC }).ctx;

/**
 * oidc-provider's adapter over our storage port. The additions:
 *
 * - Consuming a code or refresh token that another request consumed first answers
 *   `invalid_grant`, so two concurrent uses of one code or refresh token can never
 *   both succeed (oidc-provider checks "consumed" before consuming, which races).
 * - A client whose id is a URL is never stored: its metadata is the document at that URL
 *   (cimd/), and a refused document answers `invalid_client` saying why. Registered
 *   clients get random ids, never URLs, so the two never meet.
 * - Device codes: a poll at the token endpoint is paced here (`slow_down`, RFC 8628
 *   section 3.5), where oidc-provider first reads the code and before it looks at it
 *   (it has no hook of its own, and never answers `slow_down`). Codes are stored past
 *   their expiry for a while, because storage hides expired rows and oidc-provider
 *   answers `expired_token` only for a code it can still read.
 */
export function providerAdapter(deps: AdapterDeps): AdapterFactory {
  const { storage, documents } = deps;
  return (model: string): Adapter => {
    const inner = storage.adapterFor(model);
    const find =
      model === 'Client'
        ? (id: string) => (isUrlClientId(id) ? documentClient(documents, id) : inner.find(id))
        : model === 'DeviceCode'
          ? (id: string) => pacedDeviceCode(deps, inner, id)
          : (id: string) => inner.find(id);
    const keptFor = (expiresIn: number | undefined) =>
      model === 'DeviceCode' && expiresIn !== undefined ? expiresIn + deps.expiredDeviceCodeSeconds : expiresIn;
    return {
      upsert: (id, payload, expiresIn) => inner.upsert(id, payload, keptFor(expiresIn)),
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

async function pacedDeviceCode(deps: AdapterDeps, inner: OidcAdapter, id: string): Promise<OidcPayload | undefined> {
  const code = await inner.find(id);
  if (code === undefined || currentRequest()?.oidc?.route !== 'token') return code;
  const decision = await deps.devicePolls.poll(id);
  if (decision.allowed) return code;
  throw new errors.SlowDown(
    `polling too fast: this device_code's interval is now ${decision.intervalSeconds} seconds; wait that long between token requests`,
  );
}

async function documentClient(documents: ClientDocuments, clientId: string) {
  try {
    return await documents.resolve(clientId);
  } catch (error) {
    if (error instanceof CimdRefusal) {
      throw error.error === 'invalid_client_metadata' ? new errors.InvalidClientMetadata(error.description) : new errors.InvalidClient(error.description);
    }
    throw error;
  }
}
