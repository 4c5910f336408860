/**
 * docs/screenshots/mcp-app-preview.png: the preview view of get_component in the tests' web host
 * (test/apps/support), a conversation column with the view below the tool call, once the view has
 * settled at its size. Run from apps/mcp-server: `pnpm screenshot:view`.
 */
import { fileURLToPath } from 'node:url';
import { startViewStack } from '../test/apps/support/view-stack.js';

const target = fileURLToPath(new URL('../../../docs/screenshots/mcp-app-preview.png', import.meta.url));

const views = await startViewStack();
try {
  const { componentId } = await views.aComponent();
  const view = await views.host.openView({
    toolName: 'get_component',
    args: { componentId },
    token: await views.token(),
    prompt: 'Show me the Checkout Banner I just uploaded.',
  });
  await view.frame.locator('iframe').filter({ visible: true }).contentFrame().locator('.banner').waitFor();
  // Settled: the host's frame has the height the view last reported.
  await view.page.waitForFunction(() => {
    const frame = document.querySelector<HTMLIFrameElement>('#view-slot iframe');
    return frame !== null && frame.style.height !== '';
  });
  await view.page.waitForTimeout(500);
  if (views.host.problems.length > 0) throw new Error(`the view reported problems:\n${views.host.problems.join('\n')}`);
  await view.page.locator('main').screenshot({ path: target });
  console.log(`wrote ${target}`);
} finally {
  await views.close();
}
