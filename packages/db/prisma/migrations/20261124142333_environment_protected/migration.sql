-- AlterTable
ALTER TABLE "environments" ADD COLUMN     "protected" BOOLEAN NOT NULL DEFAULT false;

-- Existing organizations: `prod` is protected, as in new ones (the safer default;
-- an owner or admin can clear it on the dashboard's environments page).
UPDATE "environments" SET "protected" = true WHERE "name" = 'prod';
