-- AlterTable
ALTER TABLE "memberships" ADD COLUMN     "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Memberships older than the column: nobody knows when they joined, so the organization's creation
-- (exact for the owner who created it, the earliest possible time for anyone else).
UPDATE "memberships" m SET "joined_at" = o."created_at" FROM "organizations" o WHERE o."id" = m."organization_id";
