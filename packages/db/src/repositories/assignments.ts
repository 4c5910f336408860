import {
  experienceAssignment,
  isUuid,
  rolloutAssignment,
  type Assignments,
  type ExperienceDefinition,
} from '@cp/domain';
import { Prisma } from '../generated/prisma/client.js';
import type { SqlReader } from '../sql-reader.js';

interface LiveRow {
  readonly kind: 'experience' | 'rollout';
  readonly revision: string;
  readonly definition: ExperienceDefinition | null;
  readonly salt: string;
  readonly candidate: string | null;
  readonly weight: number | null;
  /** Variant id -> sequence, for the variants the assignment names. */
  readonly sequences: Record<string, number>;
}

export function createAssignments(sql: SqlReader): Assignments {
  return {
    async findLive(componentId, environmentName) {
      if (!isUuid(componentId)) return null;
      // One statement on the delivery API's cache-miss path: the environment by name in the
      // component's organization, then its newest experience revision (when it has segments)
      // or its live rollout serving the candidate (one of the two at a time), with the
      // sequences of the variants it names.
      const [row] = await sql.rows<LiveRow>(Prisma.sql`
        WITH env AS (
          SELECT e.id FROM components c JOIN environments e ON e.organization_id = c.organization_id AND e.name = ${environmentName}
          WHERE c.id = ${componentId}::uuid
        ), live AS (
          (SELECT 'experience' AS kind, r.assignment_revision, r.definition, r.salt, NULL::uuid AS candidate, NULL::int AS weight
            FROM experience_revisions r, env WHERE r.component_id = ${componentId}::uuid AND r.environment_id = env.id
            ORDER BY r.number DESC LIMIT 1)
          UNION ALL
          (SELECT 'rollout', o.assignment_revision, NULL, o.salt, o.candidate_variant_id, o.weight
            FROM rollouts o, env WHERE o.component_id = ${componentId}::uuid AND o.environment_id = env.id
              AND o.state IN ('running', 'paused') AND o.weight > 0)
        )
        SELECT l.kind, l.assignment_revision::text AS revision, l.definition, l.salt, l.candidate, l.weight,
          (SELECT coalesce(jsonb_object_agg(v.id, v.sequence), '{}'::jsonb) FROM variants v
            WHERE v.component_id = ${componentId}::uuid
              AND (v.id = l.candidate OR v.id::text IN (SELECT jsonb_path_query(l.definition, '$.segments[*].arms[*].variantId') #>> '{}'))) AS sequences
        FROM live l
        WHERE l.kind = 'rollout' OR jsonb_array_length(l.definition -> 'segments') > 0
        ORDER BY l.assignment_revision DESC
        LIMIT 1`);
      if (!row) return null;
      const nameOf = (variantId: string) => `v${row.sequences[variantId] ?? '?'}`;
      const revision = Number(row.revision);
      if (row.kind === 'experience') return experienceAssignment({ definition: row.definition!, salt: row.salt }, revision, nameOf);
      return rolloutAssignment({ candidateVariantId: row.candidate!, weight: row.weight!, salt: row.salt }, revision, nameOf(row.candidate!));
    },
  };
}
