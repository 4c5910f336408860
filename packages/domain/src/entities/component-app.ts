/**
 * Apps (docs/mcp-apps.md): an organization offers a released component to AI assistants. Every
 * MCP token of a member then lists a tool that renders the component's release in the app's
 * environment, inside the conversation, with the model's arguments as the component's data.
 */

export const APP_LIMITS = {
  titleChars: 80,
  descriptionChars: 1000,
  /** The input schema as JSON text. */
  inputSchemaBytes: 16 * 1024,
  /** Objects and arrays within one another, so that serializing and compiling it cannot exhaust the stack. */
  inputSchemaDepth: 32,
  /** Actions the bridge turns into tool calls instead of messages to the conversation. */
  actionTools: 20,
  actionChars: 64,
} as const;

/** A JSON Schema object: what the model's arguments must satisfy; `type` must be `object`. */
export type InputSchema = { readonly [key: string]: unknown };

/** What an owner or admin declares. */
export interface AppSettings {
  /** The environment whose release the app shows. */
  readonly environment: string;
  /** For people (the dashboard, the host's tool list). */
  readonly title: string;
  /** For the model: when to show this component and what its arguments mean. */
  readonly description: string;
  /** Null: the tool takes any object. */
  readonly inputSchema: InputSchema | null;
  /**
   * A `cpSend` action named here calls that tool of this server with the payload as its
   * arguments; every other action is reported to the conversation (`ui/message`).
   */
  readonly actionTools: Readonly<Record<string, string>>;
}

export interface ComponentApp extends Omit<AppSettings, 'environment'> {
  readonly componentId: string;
  readonly componentName: string;
  readonly organizationId: string;
  readonly environmentId: string;
  readonly environmentName: string;
  readonly updatedBy: string;
  readonly updatedAt: Date;
}

/** An app with what its environment serves now: the tool and resource names carry `version`. */
export interface LiveApp {
  readonly app: ComponentApp;
  readonly organizationName: string;
  /** Null when nothing is released to the app's environment any more. */
  readonly release: { readonly variantId: string; readonly version: number } | null;
}
