// Server-rendered HTML pages and forms shared by the auth server and the dashboard.
export * from './html.js';
export * from './csrf.js';
export * from './cookies.js';
export * from './pages.js';
