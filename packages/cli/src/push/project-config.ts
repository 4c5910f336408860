import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { usageError } from '../cli/errors.js';

/** service.config.json (docs/component-contract.md): what push uses when no flag says otherwise. */
export interface ProjectConfig {
  readonly name: string | undefined;
  readonly componentId: string | undefined;
  readonly organization: string | undefined;
}

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export async function readProjectConfig(dir: string): Promise<ProjectConfig> {
  const path = join(dir, 'service.config.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return { name: undefined, componentId: undefined, organization: undefined };
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw usageError(`${path} is not valid JSON; fix it or pass --component, --name and --org.`);
  }
  return { name: optionalString(json.name), componentId: optionalString(json.componentId), organization: optionalString(json.organization) };
}
