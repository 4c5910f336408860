// The cpc entry point (scripts/build.mjs bundles it into dist/cpc.js).
