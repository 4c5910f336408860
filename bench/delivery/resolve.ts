/*
 * bench/ is not a workspace package: third-party modules are resolved from
 * apps/delivery-api, which declares them (pg).
 */
import { createRequire } from 'node:module';

const appRequire = createRequire(new URL('../../apps/delivery-api/package.json', import.meta.url));

export const pg = appRequire('pg') as typeof import('pg');
