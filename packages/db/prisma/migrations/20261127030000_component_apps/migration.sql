-- Components offered to AI assistants as apps (docs/mcp-apps.md, section 2). Removing the
-- component, its environment or its organization removes the app (ON DELETE CASCADE).

-- CreateTable
CREATE TABLE "component_apps" (
    "component_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "input_schema" JSONB,
    "action_tools" JSONB NOT NULL DEFAULT '{}',
    "updated_by" UUID NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "component_apps_pkey" PRIMARY KEY ("component_id")
);

-- CreateIndex
CREATE INDEX "component_apps_organization_id_idx" ON "component_apps"("organization_id");

-- CreateIndex
CREATE INDEX "component_apps_environment_id_idx" ON "component_apps"("environment_id");

-- AddForeignKey
ALTER TABLE "component_apps" ADD CONSTRAINT "component_apps_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "components"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "component_apps" ADD CONSTRAINT "component_apps_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "component_apps" ADD CONSTRAINT "component_apps_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
