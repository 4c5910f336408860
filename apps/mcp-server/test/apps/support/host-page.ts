/*
 * The host page: a conversation column as chat clients show one (the user's message, the
 * assistant's tool call, the view below it at the column's width), which loads the bundled host
 * script (host-page.browser.ts). The view's frame takes the height the view reports.
 */
export const hostPageHtml = (): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conversation</title>
<style>
  :root { color-scheme: light; font-family: system-ui, sans-serif; font-size: 15px; color: #1f1f1f; }
  body { margin: 0; background: #f4f3ee; }
  main { max-width: 720px; margin: 0 auto; padding: 24px 16px 48px; }
  .turn { margin: 0 0 16px; line-height: 1.5; }
  .user { margin-left: auto; width: fit-content; max-width: 80%; background: #e8e4d8; padding: 10px 14px; border-radius: 18px; }
  .tool { display: inline-block; font: 12px ui-monospace, monospace; color: #555; background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 4px 8px; }
  .view { display: block; width: 100%; height: 160px; border: 0; border-radius: 12px; background: #fff; }
  .view.bordered { outline: 1px solid #d8d5cc; }
</style></head>
<body><main>
  <p class="turn user" id="user-turn"></p>
  <p class="turn"><span class="tool" id="tool-name"></span></p>
  <div class="turn" id="view-slot"></div>
</main>
<script type="module" src="/host.js"></script>
</body></html>`;
