export * from './oidc-storage-contract.js';
export * from './application-grants-contract.js';
export * from './credentials-contract.js';
export * from './grant-lookup-contract.js';
export * from './environment-protection-contract.js';
export * from './upload-sweep-contract.js';
export * from './preview-keys-contract.js';
export * from './release-requests-contract.js';
