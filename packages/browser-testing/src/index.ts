export { chromiumPath, DEBIAN_CHROMIUM, launchChromium } from './chromium.js';
export type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
export { aptInstallCommand, installDebianPackage, thisSystem, type System } from './debian-package.js';
export { accessibilityViolations, type AccessibilityViolation } from './accessibility.js';
