#!/usr/bin/env node
// The CLI's launcher: the front (arguments, --version, --help) loads the gate only for a command.
import { bundles } from './launch.js';

const load = await bundles();
load?.('cli.cjs').runCli(process.argv.slice(2), () => load('mcp-gate.cjs'));
