// The peer of bench_schema: ajv (draft 2020-12, allErrors, multipleOfPrecision 9) over the same
// schema and instances, formats as annotations and then asserted (ajv-formats). Best of ROUNDS,
// wall and process CPU. Prints one JSON line.
//
//   node ajv_validate.mjs SCHEMA.json INSTANCES.jsonl [ROUNDS]
import fs from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const [schemaPath, instancesPath, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText || 3);
const schema = JSON.parse(fs.readFileSync(schemaPath, "utf8"));
const lines = fs.readFileSync(instancesPath, "utf8").split("\n").filter((l) => l.length > 0);
const docs = lines.map((l) => JSON.parse(l));

function best(body) {
  let wall = Infinity;
  let cpu = Infinity;
  let counts;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    counts = body();
    const c1 = process.cpuUsage(c0);
    wall = Math.min(wall, Number(process.hrtime.bigint() - t0) / 1e9);
    cpu = Math.min(cpu, (c1.user + c1.system) / 1e6);
  }
  return { per_s: lines.length / wall, per_cpu_s: lines.length / cpu, ...counts };
}

const out = {};
for (const assertFormats of [false, true]) {
  const ajv = new Ajv2020({ allErrors: true, multipleOfPrecision: 9, strict: false, validateFormats: assertFormats });
  if (assertFormats) addFormats(ajv);
  const validate = ajv.compile(schema);
  const run = (items, parse) => () => {
    let valid = 0;
    let errors = 0;
    for (const item of items) {
      if (validate(parse ? JSON.parse(item) : item)) valid++;
      else errors += validate.errors.length;
    }
    return { valid, errors };
  };
  const mode = assertFormats ? "asserted" : "annotation";
  out[mode] = { validate: best(run(docs, false)), parse_validate: best(run(lines, true)) };
}
console.log(JSON.stringify(out));
