#!/usr/bin/env node
// The CLI's launcher: the front (arguments, --version, --help) loads the gate only for a command.
import { launch } from './launch.js';

await launch((load) => load('cli.cjs').runCli(process.argv.slice(2), () => load('mcp-gate.cjs')));
