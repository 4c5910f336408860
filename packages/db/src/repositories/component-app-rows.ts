import type { ComponentApp, InputSchema, LiveApp } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';

export const withNames = { component: { select: { name: true } }, environment: { select: { name: true } } } as const;
type AppRow = Prisma.ComponentAppGetPayload<{ include: typeof withNames }>;

export const toComponentApp = (row: AppRow): ComponentApp => ({
  componentId: row.componentId,
  componentName: row.component.name,
  organizationId: row.organizationId,
  environmentId: row.environmentId,
  environmentName: row.environment.name,
  title: row.title,
  description: row.description,
  inputSchema: (row.inputSchema ?? null) as InputSchema | null,
  actionTools: row.actionTools as Record<string, string>,
  updatedBy: row.updatedBy,
  updatedAt: row.updatedAt,
});

/** A row of listForMember's query: the app, its names, and the release of its environment (columns null without one). */
export interface LiveAppRow {
  componentId: string;
  componentName: string;
  organizationId: string;
  organizationName: string;
  environmentId: string;
  environmentName: string;
  title: string;
  description: string;
  inputSchema: unknown;
  actionTools: unknown;
  updatedBy: string;
  updatedAt: Date;
  variantId: string | null;
  version: number | null;
}

export const toLiveApp = ({ organizationName, variantId, version, ...row }: LiveAppRow): LiveApp => ({
  app: {
    ...row,
    inputSchema: (row.inputSchema ?? null) as InputSchema | null,
    actionTools: row.actionTools as Record<string, string>,
  },
  organizationName,
  release: variantId !== null && version !== null ? { variantId, version } : null,
});
