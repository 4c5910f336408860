export { chromiumPath, DEBIAN_CHROMIUM, launchChromium } from './chromium.js';
export type { Browser, BrowserContext, Page } from 'playwright-core';
