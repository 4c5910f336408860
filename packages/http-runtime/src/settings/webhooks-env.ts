import { flag, type Parsed } from './pieces.js';

/**
 * Read by the services that check or call webhook URLs (dashboard at creation, worker at
 * delivery), so both apply the same outbound rule (packages/http-runtime/src/outbound).
 */
export const webhooksEnvShape = {
  /** Development only: loopback receivers (http too) are allowed. `pnpm start` turns it on. */
  WEBHOOKS_ALLOW_LOOPBACK: flag(false),
};

/** Production refuses the development-only switch, naming it. */
export function webhooksProblems(
  env: Parsed<typeof webhooksEnvShape>,
  { production }: { production: boolean },
): string[] {
  return production && env.WEBHOOKS_ALLOW_LOOPBACK
    ? [
        'WEBHOOKS_ALLOW_LOOPBACK: development only (loopback webhook receivers); unset it in production',
      ]
    : [];
}
