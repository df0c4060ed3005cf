#!/usr/bin/env node
// Lists route definitions that break the naming rules.
const fs = require("fs");
const file = process.argv[2];
if (!file) { console.error("usage: audit-endpoints.js FILE"); process.exit(2); }
const src = fs.readFileSync(file, "utf8");
for (const m of src.matchAll(/\.(get|post|put|delete)\("([^"]+)"/g)) {
  if (!/^\/[a-z-]+s(\/|$)/.test(m[2])) console.log(`${m[1].toUpperCase()} ${m[2]}: use a plural noun`);
}
