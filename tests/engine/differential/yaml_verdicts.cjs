// Reads a JSON array of YAML texts on stdin; prints a JSON array with, for each,
// "ok" when js-yaml's load() accepts it or "err: <reason>" when it throws.
// Usage: node yaml_verdicts.cjs <folder holding node_modules/js-yaml>
"use strict";
const path = require("path");
const yaml = require(path.join(process.argv[2], "node_modules", "js-yaml"));

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const verdicts = JSON.parse(input).map((text) => {
    try {
      yaml.load(text);
      return "ok";
    } catch (e) {
      return "err: " + String(e.reason || e.message).split("\n")[0];
    }
  });
  process.stdout.write(JSON.stringify(verdicts));
});
