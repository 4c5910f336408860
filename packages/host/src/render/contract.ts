/*
 * The host's side of the component contract, shared by both isolations:
 * what a `cpSend(action, payload)` of the component does.
 */

export interface ActionOptions {
  readonly autoHeight: boolean;
  readonly onAction: (action: string, payload: unknown) => void;
}

/** `cp:` actions are the SDK's own (`cp:size`) and never reach the host; anything malformed is ignored. */
export const actionRouter =
  ({ autoHeight, onAction }: ActionOptions, setHeight: (px: number) => void) =>
  (action: unknown, payload: unknown): void => {
    if (typeof action !== 'string' || !action) return;
    if (!action.startsWith('cp:')) return onAction(action, payload);
    const height = (payload as { height?: unknown } | null | undefined)?.height;
    // With autoHeight the measured height rules.
    if (action === 'cp:size' && !autoHeight && typeof height === 'number' && height >= 0 && height < Infinity) setHeight(height);
  };
