/** jest globalTeardown: stops the Chromium that global-setup.js started. */
export default async function stopBrowser() {
  await globalThis.cpSharedChromium?.close();
}
