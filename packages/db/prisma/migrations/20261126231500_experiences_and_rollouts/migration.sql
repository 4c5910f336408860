-- CreateEnum
CREATE TYPE "rollout_state" AS ENUM ('running', 'paused', 'promoted', 'stopped', 'rolled_back');

-- AlterTable
ALTER TABLE "release_requests" ADD COLUMN     "plan" JSONB NOT NULL DEFAULT '{"kind":"release"}';

-- CreateTable
CREATE TABLE "experience_drafts" (
    "component_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "definition" JSONB NOT NULL,
    "updated_by" UUID NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "experience_drafts_pkey" PRIMARY KEY ("component_id","environment_id")
);

-- CreateTable
CREATE TABLE "experience_revisions" (
    "component_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "definition" JSONB NOT NULL,
    "salt" TEXT NOT NULL,
    "republished_from" INTEGER,
    "published_by" UUID NOT NULL,
    "published_at" TIMESTAMPTZ(3) NOT NULL,
    "assignment_revision" BIGINT NOT NULL,

    CONSTRAINT "experience_revisions_pkey" PRIMARY KEY ("component_id","environment_id","number")
);

-- CreateTable
CREATE TABLE "rollouts" (
    "id" UUID NOT NULL,
    "component_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "candidate_variant_id" UUID NOT NULL,
    "baseline_variant_id" UUID NOT NULL,
    "salt" TEXT NOT NULL,
    "stages" JSONB NOT NULL,
    "stage_index" INTEGER NOT NULL,
    "weight" INTEGER NOT NULL,
    "state" "rollout_state" NOT NULL,
    "revision" INTEGER NOT NULL,
    "guard" JSONB NOT NULL,
    "started_by" UUID NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "stage_started_at" TIMESTAMPTZ(3) NOT NULL,
    "window_started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "reason" TEXT,
    "assignment_revision" BIGINT NOT NULL,

    CONSTRAINT "rollouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rollout_windows" (
    "rollout_id" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "from" TIMESTAMPTZ(3) NOT NULL,
    "to" TIMESTAMPTZ(3) NOT NULL,
    "weight" INTEGER NOT NULL,
    "candidate_sessions" INTEGER NOT NULL,
    "candidate_error_sessions" INTEGER NOT NULL,
    "release_sessions" INTEGER NOT NULL,
    "release_error_sessions" INTEGER NOT NULL,
    "rise" DOUBLE PRECISION NOT NULL,
    "z" DOUBLE PRECISION NOT NULL,
    "sample_ratio_p" DOUBLE PRECISION NOT NULL,
    "verdict" TEXT NOT NULL,

    CONSTRAINT "rollout_windows_pkey" PRIMARY KEY ("rollout_id","index")
);

-- CreateIndex
CREATE INDEX "experience_drafts_environment_id_idx" ON "experience_drafts"("environment_id");

-- CreateIndex
CREATE INDEX "experience_revisions_environment_id_idx" ON "experience_revisions"("environment_id");

-- CreateIndex
CREATE INDEX "rollouts_component_id_started_at_idx" ON "rollouts"("component_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "rollouts_environment_id_idx" ON "rollouts"("environment_id");

-- CreateIndex
CREATE INDEX "rollouts_candidate_variant_id_idx" ON "rollouts"("candidate_variant_id");

-- CreateIndex
CREATE INDEX "rollouts_baseline_variant_id_idx" ON "rollouts"("baseline_variant_id");

-- AddForeignKey
ALTER TABLE "experience_drafts" ADD CONSTRAINT "experience_drafts_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "components"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experience_drafts" ADD CONSTRAINT "experience_drafts_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experience_revisions" ADD CONSTRAINT "experience_revisions_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "components"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experience_revisions" ADD CONSTRAINT "experience_revisions_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rollouts" ADD CONSTRAINT "rollouts_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "components"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rollouts" ADD CONSTRAINT "rollouts_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rollouts" ADD CONSTRAINT "rollouts_candidate_variant_id_fkey" FOREIGN KEY ("candidate_variant_id") REFERENCES "variants"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rollouts" ADD CONSTRAINT "rollouts_baseline_variant_id_fkey" FOREIGN KEY ("baseline_variant_id") REFERENCES "variants"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rollout_windows" ADD CONSTRAINT "rollout_windows_rollout_id_fkey" FOREIGN KEY ("rollout_id") REFERENCES "rollouts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma's schema cannot express them).
-- At most one running or paused rollout per (component, environment): a second start meets the first.
-- Also the guard's listLive read (its predicate is the same).
CREATE UNIQUE INDEX "rollouts_one_live_idx" ON "rollouts"("component_id", "environment_id") WHERE "state" IN ('running', 'paused');

-- A live rollout has not ended; an ended one has, and serves no candidate.
ALTER TABLE "rollouts" ADD CONSTRAINT "rollouts_state_check" CHECK (
  ("state" IN ('running', 'paused')) = ("ended_at" IS NULL)
  AND "weight" BETWEEN 0 AND 100000
  AND ("state" NOT IN ('stopped', 'rolled_back') OR "weight" = 0)
);

ALTER TABLE "rollout_windows" ADD CONSTRAINT "rollout_windows_verdict_check" CHECK ("verdict" IN ('healthy', 'regressed', 'sample_ratio_mismatch'));

-- The delivery descriptor's `revision`: unique and increasing across every publish and rollout
-- change of every component environment, so a host's stale `rev` is always recognised.
CREATE SEQUENCE "assignment_revisions" AS BIGINT;

-- An approved experience or rollout request makes no release event (release_requests.plan).
ALTER TABLE "release_requests" DROP CONSTRAINT "release_requests_decision_check";
ALTER TABLE "release_requests" ADD CONSTRAINT "release_requests_decision_check" CHECK (
  ("state" = 'pending') = ("decided_by" IS NULL AND "decided_at" IS NULL)
  AND ("decline_reason" IS NOT NULL) = ("state" = 'declined')
  AND ("release_event_id" IS NOT NULL) = ("state" = 'approved' AND "plan"->>'kind' = 'release')
);

-- What the delivery API serves changes with them: its caches and the /changes stream hear
-- of it on commit (as for variants and releases, migration delivery_change_notifications).
CREATE TRIGGER "experience_revisions_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "experience_revisions"
  FOR EACH ROW EXECUTE FUNCTION "notify_component_child_changed"();

CREATE TRIGGER "rollouts_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "rollouts"
  FOR EACH ROW EXECUTE FUNCTION "notify_component_child_changed"();
