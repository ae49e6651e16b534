// The peer of bench_sse: eventsource-parser over the same stream, fed in 16 KiB chunks decoded
// as a client decodes them, with a JSON.parse of every event's data. Best of ROUNDS. Prints one
// JSON line.
//
//   node sse_parse.mjs STREAM.sse [ROUNDS]
import fs from "node:fs";
import { createParser } from "eventsource-parser";

const [path, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText || 3);
const bytes = fs.readFileSync(path);
const chunks = [];
for (let at = 0; at < bytes.length; at += 16384) chunks.push(bytes.subarray(at, at + 16384));

let wall = Infinity;
let cpu = Infinity;
let events = 0;
let failures = 0;
for (let r = 0; r < rounds; r++) {
  events = 0;
  failures = 0;
  const parser = createParser({
    onEvent(event) {
      events++;
      try {
        JSON.parse(event.data);
      } catch {
        failures++;
      }
    },
  });
  const decoder = new TextDecoder();
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  const c1 = process.cpuUsage(c0);
  wall = Math.min(wall, Number(process.hrtime.bigint() - t0) / 1e9);
  cpu = Math.min(cpu, (c1.user + c1.system) / 1e6);
}
const mb = bytes.length / 1e6;
console.log(JSON.stringify({ mb_per_s: mb / wall, mb_per_cpu_s: mb / cpu, events, failures }));
