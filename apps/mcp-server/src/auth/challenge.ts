import type { Response } from 'express';
import { RpcErrorCode, sendRpcError, type RpcId } from '../http/json-rpc.js';
import { SUPPORTED_SCOPES } from './scopes.js';

/*
 * RFC 6750 §3 challenges with the RFC 9728 `resource_metadata` parameter, which
 * is how an MCP client finds the authorization server. Descriptions are our own
 * fixed sentences (no quotes or backslashes), never token contents.
 */
const ALL_SCOPES = SUPPORTED_SCOPES.join(' ');

export function sendUnauthorized(res: Response, options: { metadataUrl: string; id: RpcId; invalidToken?: string }): void {
  const challenge =
    options.invalidToken === undefined
      ? `Bearer resource_metadata="${options.metadataUrl}", scope="${ALL_SCOPES}"`
      : `Bearer error="invalid_token", error_description="${options.invalidToken}", resource_metadata="${options.metadataUrl}", scope="${ALL_SCOPES}"`;
  res.setHeader('WWW-Authenticate', challenge);
  const message =
    options.invalidToken === undefined
      ? 'Unauthorized: authorization is required. Connect with OAuth (the WWW-Authenticate header names the metadata).'
      : `Unauthorized: ${options.invalidToken} Reconnect to obtain a fresh token.`;
  sendRpcError(res, 401, options.id, RpcErrorCode.Unauthorized, message);
}

export function sendInsufficientScope(res: Response, options: { metadataUrl: string; id: RpcId; missing: readonly string[] }): void {
  res.setHeader('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${ALL_SCOPES}", resource_metadata="${options.metadataUrl}"`);
  sendRpcError(
    res,
    403,
    options.id,
    RpcErrorCode.Forbidden,
    `Forbidden: this needs the ${options.missing.join(' and ')} scope, which this connection was not granted. Reconnect and allow ${options.missing.join(' and ')}.`,
  );
}
