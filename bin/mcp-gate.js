#!/usr/bin/env node
// The CLI's launcher: runs src/cli.ts, packed (see bin/launch.js).
'use strict';
require('./launch.js').launch((gate) => gate.main(process.argv.slice(2)));
