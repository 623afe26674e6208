#!/usr/bin/env node
// The command-line client (docs/cli.md), run from the TypeScript source with the repository's tsx.
require('tsx/cjs/api').register();
require('../src/main/cli.ts');
