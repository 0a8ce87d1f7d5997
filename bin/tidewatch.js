#!/usr/bin/env node
// The command line runs straight from the TypeScript sources (no build step after `npm install`).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
