import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';

/** The MCP revision that removed JSON-RPC batching: from it on, a body holds one message. */
export const BATCHING_REMOVED_IN = '2025-06-18';

export type ProtocolVersion =
  { ok: true; version: string; batching: boolean } | { ok: false; message: string };

/**
 * The protocol revision a request speaks. The server is stateless, so it has no
 * session to remember what initialize negotiated: clients repeat it in the
 * `MCP-Protocol-Version` header on every later request, and a request without the
 * header is read as the revision the spec assumes then (the SDK does the same).
 * An unsupported value is refused here, before the body is read, as the SDK would
 * refuse it after. Revisions are dates, so they compare as strings.
 */
export function protocolVersionOf(header: string | undefined): ProtocolVersion {
  const version = header ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return {
      ok: false,
      message: `Bad Request: unsupported MCP-Protocol-Version "${version}". Send the version negotiated at initialize, one of ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
    };
  }
  return { ok: true, version, batching: version < BATCHING_REMOVED_IN };
}
