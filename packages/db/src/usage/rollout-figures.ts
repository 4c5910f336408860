import type { ArmSessions, RolloutFigures } from '@cp/domain';
import type { SqlReader } from '../sql-reader.js';

/*
 * Per variant, the distinct sessions (one page load of the SDK, its random session id) that
 * reported a load or a render in [$3, $4), and how many of those also reported an error there.
 * One component and environment: the index (component_id, environment, at) of each day partition
 * the range overlaps reads only its rows. Sampled events count as they are: the guard compares
 * the two arms, which the host samples alike.
 */
export const ROLLOUT_SESSIONS_SQL = `
  SELECT s."variantId", count(*)::int AS "sessions", count(*) FILTER (WHERE s."errored")::int AS "errorSessions"
  FROM (
    SELECT "variant_id"::text AS "variantId", bool_or("type" = 'error') AS "errored"
    FROM "usage"."events"
    WHERE "component_id" = $1 AND "environment" = $2 AND "at" >= $3 AND "at" < $4
      AND "variant_id" = ANY($5::uuid[]) AND "type" IN ('load', 'render', 'error')
    GROUP BY "variant_id", "session_id"
    HAVING bool_or("type" IN ('load', 'render'))
  ) s
  GROUP BY 1`;

/** RolloutFigures (ports/rollouts.ts) over the raw usage events; a variant without sessions answers zeros. */
export function createRolloutFigures(sql: SqlReader): RolloutFigures {
  return {
    async sessions({ componentId, environment, variantIds, from, to }) {
      const figures = new Map<string, ArmSessions>(variantIds.map((id) => [id, { sessions: 0, errorSessions: 0 }]));
      if (variantIds.length === 0) return figures;
      const rows = await sql.rows<{ variantId: string } & ArmSessions>({
        text: ROLLOUT_SESSIONS_SQL,
        values: [componentId, environment, from, to, [...variantIds]],
      });
      for (const { variantId, sessions, errorSessions } of rows) figures.set(variantId, { sessions, errorSessions });
      return figures;
    },
  };
}
