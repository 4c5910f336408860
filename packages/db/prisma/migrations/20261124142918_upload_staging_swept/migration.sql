-- Every session, in any state, has its staging object removed once after its expiry.
-- Existing rows start unswept on purpose: the next sweeps remove what a PUT after
-- confirm_upload left behind (removing a missing object is not an error).

-- DropIndex
DROP INDEX "upload_sessions_state_expires_at_idx";

-- AlterTable
ALTER TABLE "upload_sessions" ADD COLUMN     "staging_removed_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "upload_sessions_staging_removed_at_expires_at_idx" ON "upload_sessions"("staging_removed_at", "expires_at");
