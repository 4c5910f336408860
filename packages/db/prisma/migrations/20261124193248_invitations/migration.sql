-- CreateTable
CREATE TABLE "invitations" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "email_key" TEXT NOT NULL,
    "role" "membership_role" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "accepted_by" UUID,
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_by" UUID,

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");

-- CreateIndex
CREATE INDEX "invitations_organization_id_created_at_idx" ON "invitations"("organization_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "invitations_organization_id_email_key_idx" ON "invitations"("organization_id", "email_key");

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Ownership is transferred to a member, never given by an invitation (rules/invitations.ts).
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_role_not_owner" CHECK ("role" <> 'owner');

-- Accepted and revoked are each set once, with who did it.
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_accepted_by_set" CHECK (("accepted_at" IS NULL) = ("accepted_by" IS NULL));
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_revoked_by_set" CHECK (("revoked_at" IS NULL) = ("revoked_by" IS NULL));
