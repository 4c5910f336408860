import { aComponent, aMembership as joinOrganization, anAuditNote, anUploadSession, aVariant, aVariantInput, type TestDatabase } from '@cp/db/testing';
import type { Component, DomainDeps, Role, User, Variant } from '@cp/domain';

/** Stores `html` at a variant's object key, as a confirmed upload leaves it. */
export async function storeObject(domain: DomainDeps, key: string, html: string): Promise<void> {
  const url = await domain.objects.presignPut(key, { expiresInSeconds: 60, contentType: 'text/html' });
  const res = await fetch(url, { method: 'PUT', body: html, headers: { 'content-type': 'text/html' } });
  if (!res.ok) throw new Error(`storing ${key}: ${res.status}`);
}

/** A component of the user's default organization with `count` variants (v1..vN), each with its HTML stored. */
export async function aComponentWithVariants(
  domain: DomainDeps,
  user: User,
  count: number,
  options: { name?: string; tags?: string[]; now?: Date } = {},
): Promise<{ component: Component; variants: Variant[] }> {
  const component = await aComponent(domain.repos, { organizationId: user.defaultOrganizationId, createdBy: user.id, ...options });
  const variants = [(await domain.repos.variants.findLatest(component.id))!];
  for (let i = variants.length; i < count; i += 1) variants.push(await aVariant(domain.repos, { componentId: component.id, createdBy: user.id, ...(options.now ? { now: options.now } : {}) }));
  for (const [index, variant] of variants.entries()) await storeObject(domain, variant.objectKey, `<!doctype html><html><body><h1>v${index + 1}</h1></body></html>`);
  return { component: (await domain.repos.components.findById(component.id))!, variants };
}

/** One more variant of `component` through a confirmed upload: uploaded by `by`, at `now`, of `size` bytes (nothing stored). */
export async function anUploadOf(domain: DomainDeps, component: Component, options: { by: User; now: Date; size?: number }): Promise<Variant> {
  const session = await anUploadSession(domain.repos, { userId: options.by.id, organizationId: component.organizationId, componentId: component.id, componentName: component.name, now: options.now });
  const variant = aVariantInput(options.by.id, options.size === undefined ? {} : { size: options.size });
  await domain.repos.uploadSessions.confirm({ sessionId: session.id, now: options.now, componentId: component.id, newComponent: null, variant, audit: anAuditNote(options.by.id) });
  return (await domain.repos.variants.findById(variant.id))!;
}

/** `user` joins the organization with `role` straight in the database: a shortcut past invitations for tests about what a role sees. */
export async function aMembership(db: TestDatabase | null, user: User, organizationId: string, role: Role = 'member'): Promise<void> {
  if (db === null) throw new Error("aMembership needs the stack's own database");
  await joinOrganization(db, { userId: user.id, organizationId, role });
}
