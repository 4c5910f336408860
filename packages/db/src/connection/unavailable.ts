import { databaseUnavailable, isDomainError } from '@cp/domain';
import { Prisma } from '../generated/prisma/client.js';

/*
 * The one place that tells "the database cannot be reached or stopped answering"
 * from every other failure. PostgreSQL reaches the code in several shapes: Node's
 * socket errors, pg's own errors (its pool's connection deadline, its query deadline,
 * a connection that ended), PostgreSQL's SQLSTATEs for a server that is shutting down
 * or full, and the same wrapped by Prisma (its P1xxx codes, the driver adapter's
 * error kinds, or the message of an error it does not know).
 */

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED', 'EAI_AGAIN']);
/** SQLSTATE class 08 (connection exception), the server shutting down or starting, too many connections. */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;
/** Prisma's codes for a server it cannot reach, a closed connection, and the waits for a connection or a transaction. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /connection terminated/i,
  /query read timeout/i,
  /connection error and is not queryable/i,
  /client was closed and is not queryable/i,
  /cannot use a pool after calling end/i,
  /server closed the connection unexpectedly/i,
  /can't reach database server/i,
  /unable to start a transaction in the given time/i,
  /timed out fetching a new connection/i,
  /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE)\b/,
];

const has = (value: unknown, key: string): value is Record<string, unknown> => typeof value === 'object' && value !== null && key in value;

function unavailableHere(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = has(error, 'code') && typeof error.code === 'string' ? error.code : undefined;
  if (code !== undefined && (SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  if (error instanceof Prisma.PrismaClientKnownRequestError && PRISMA_CODES.has(error.code)) return true;
  const cause = has(error, 'meta') && has(error.meta, 'driverAdapterError') && has(error.meta.driverAdapterError, 'cause') ? error.meta.driverAdapterError.cause : has(error, 'cause') ? error.cause : undefined;
  if (has(cause, 'kind')) {
    if (typeof cause.kind === 'string' && ADAPTER_KINDS.has(cause.kind)) return true;
    if (cause.kind === 'postgres' && typeof cause.code === 'string' && UNAVAILABLE_SQLSTATE.test(cause.code)) return true;
  }
  const message = error instanceof Error ? error.message : '';
  return MESSAGES.some((pattern) => pattern.test(message));
}

/** True when `error` (or an error it wraps) says PostgreSQL cannot be reached or stopped answering. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if (isDomainError(current)) return current.code === 'DATABASE_UNAVAILABLE';
    if (unavailableHere(current)) return true;
    current = has(current, 'cause') ? current.cause : undefined;
  }
  return false;
}

/** `error` as the domain's DATABASE_UNAVAILABLE when it is one, else unchanged. */
export const asDomainFailure = (error: unknown): unknown => (isDatabaseUnavailable(error) && !isDomainError(error) ? databaseUnavailable(error) : error);

const proxies = new WeakMap<object, object>();

const isPlainObject = (value: unknown): value is object => typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * `target` with every method (also of the objects it holds, e.g. each repository of
 * `Repositories`) rejecting with DATABASE_UNAVAILABLE instead of the driver's error,
 * so every edge answers it the same way (503, a tool error) through the domain's
 * error table, and no edge needs to know pg or Prisma.
 */
export function withUnavailableAsDomainError<T extends object>(target: T): T {
  const known = proxies.get(target);
  if (known !== undefined) return known as T;
  const proxy = new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value === 'function') {
        return function mapped(this: unknown, ...args: unknown[]) {
          try {
            const result: unknown = Reflect.apply(value, this === proxy ? object : this, args);
            if (result instanceof Promise) {
              return result.catch((error: unknown) => {
                throw asDomainFailure(error);
              });
            }
            // A factory of further methods (e.g. the storage of one OIDC model).
            return isPlainObject(result) ? withUnavailableAsDomainError(result) : result;
          } catch (error) {
            throw asDomainFailure(error);
          }
        };
      }
      if (isPlainObject(value)) return withUnavailableAsDomainError(value);
      return value;
    },
  });
  proxies.set(target, proxy);
  return proxy;
}
