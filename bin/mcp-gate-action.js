#!/usr/bin/env node
// The GitHub Action's launcher (action.yml runs it): runs action/main.ts from the packed gate (see bin/launch.js).
'use strict';
require('./launch.js').launch((gate) => gate.runAction());
