#!/usr/bin/env node
// The MCP server over stdio (docs/mcp.md), run from the TypeScript source with the repository's tsx.
require('tsx/cjs/api').register();
require('../src/main/mcp.ts');
