export * from './user.js';
export * from './organization.js';
export * from './component.js';
export * from './release.js';
export * from './upload-session.js';
export * from './flow.js';
export * from './connected-application.js';
export * from './preview-key.js';
