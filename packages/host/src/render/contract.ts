/*
 * The host's side of the component contract, shared by both isolations:
 * what a `cpSend(action, payload)` of the component does.
 */

export interface ActionOptions {
  readonly autoHeight: boolean;
  readonly onAction: (action: string, payload: unknown) => void;
}

/** What the component's `cp:` actions change: its element's height, and the full-viewport overlay (iframe only). */
export interface Sizing {
  height(px: number): void;
  overlay(open: boolean): void;
}

/** `cp:` actions are the SDK's own (`cp:size`, `cp:overlay`) and never reach the host; anything malformed is ignored. */
export const actionRouter =
  ({ autoHeight, onAction }: ActionOptions, sizing: Sizing) =>
  (action: unknown, payload: unknown): void => {
    if (typeof action !== 'string' || !action) return;
    if (!action.startsWith('cp:')) return onAction(action, payload);
    const { height, open } = (payload ?? {}) as { height?: unknown; open?: unknown };
    // With autoHeight the measured height rules.
    if (action === 'cp:size' && !autoHeight && typeof height === 'number' && height >= 0 && height < Infinity) sizing.height(height);
    if (action === 'cp:overlay' && typeof open === 'boolean') sizing.overlay(open);
  };
