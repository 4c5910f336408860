-- CreateEnum
CREATE TYPE "ci_provider" AS ENUM ('github', 'gitlab');

-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "via" JSONB;

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "scope" JSONB NOT NULL,
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "grant_id" TEXT,

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ci_trust_policies" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "provider" "ci_provider" NOT NULL,
    "owner_id" TEXT NOT NULL,
    "repository_id" TEXT NOT NULL,
    "repository_name" TEXT NOT NULL,
    "workflow" TEXT NOT NULL,
    "environment" TEXT,
    "ref_patterns" TEXT[],
    "require_hosted_runner" BOOLEAN NOT NULL,
    "scope" JSONB NOT NULL,
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "grant_id" TEXT,

    CONSTRAINT "ci_trust_policies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ci_token_uses" (
    "issuer" TEXT NOT NULL,
    "jti" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ci_token_uses_pkey" PRIMARY KEY ("issuer","jti")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_secret_hash_key" ON "api_tokens"("secret_hash");

-- CreateIndex
CREATE INDEX "api_tokens_organization_id_created_by_idx" ON "api_tokens"("organization_id", "created_by");

-- CreateIndex
CREATE INDEX "api_tokens_organization_id_created_at_idx" ON "api_tokens"("organization_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "ci_trust_policies_provider_owner_id_created_at_idx" ON "ci_trust_policies"("provider", "owner_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "ci_trust_policies_organization_id_name_key" ON "ci_trust_policies"("organization_id", "name");

-- CreateIndex
CREATE INDEX "ci_token_uses_issuer_expires_at_idx" ON "ci_token_uses"("issuer", "expires_at");

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_trust_policies" ADD CONSTRAINT "ci_trust_policies_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
