// `emilia bench midgame` from the WebAssembly build, under Node: the same positions, settings
// and lines. Usage: node web/bench.mjs [--depth N] [--seconds S] (after web/build.sh).
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { initSync, benchMidgame, supplyFile } from "./dist/emilia_web.js";

function usage(message) {
  console.error(`bench.mjs: ${message}\nUsage: node web/bench.mjs [--depth N] [--seconds S]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let depth = 0;
let seconds = 1;
for (let i = 0; i < args.length; i += 2) {
  const [name, value] = [args[i], args[i + 1]];
  if (value === undefined) usage(`${name} needs a value`);
  if (name === "--depth") {
    depth = Number(value);
    if (!Number.isInteger(depth) || depth < 1) usage(`--depth ${value}: give a whole number of plies, at least 1`);
  } else if (name === "--seconds") {
    seconds = Number(value);
    if (!(seconds > 0)) usage(`--seconds ${value}: give a positive number`);
  } else {
    usage(`unknown option ${name}`);
  }
}

const dist = (name) => gunzipSync(readFileSync(fileURLToPath(new URL(`./dist/${name}`, import.meta.url))));
initSync({ module: dist("emilia_web_bg.wasm.gz") });
// The module carries no weights: the 8x8 ones, as the page hands them over.
supplyFile("emilia.weights", dist("emilia.weights.gz"));
benchMidgame(depth, seconds, (line) => console.log(line));
