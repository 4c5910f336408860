type Source = Readonly<Record<string, string | undefined>>;

/** Where `pnpm start` listens unless STACK_HOST says otherwise: this machine only. */
export const DEFAULT_STACK_HOST = '127.0.0.1';

const SERVICE_HOSTS = ['AUTH_HOST', 'MCP_HOST', 'DELIVERY_HOST', 'DASHBOARD_HOST', 'WORKER_HOST'] as const;

/**
 * The embedded stack holds development keys and open sign-up, so it listens on
 * loopback unless STACK_HOST names another interface (`0.0.0.0`: every one). A
 * service's own *_HOST still wins. Empty values count as unset, as in every setting.
 */
export function withStackHost(source: Source): { host: string; source: Source } {
  const host = source.STACK_HOST || DEFAULT_STACK_HOST;
  const hosts = Object.fromEntries(SERVICE_HOSTS.map((name) => [name, source[name] || host]));
  return { host, source: { ...source, ...hosts } };
}
