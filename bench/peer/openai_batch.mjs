// The peer of bench_batch: the same two-turn structured calls (a get_ticket tool call, then
// submit_output) through the official openai SDK, `jobs` calls in flight, against the fake
// provider bench_batch serves. Prints one JSON line: wall ms and process CPU ms.
//
//   node openai_batch.mjs BASE_URL CALLS JOBS
import OpenAI from "openai";

const [baseUrl, callsText, jobsText] = process.argv.slice(2);
const calls = Number(callsText);
const jobs = Number(jobsText);
const client = new OpenAI({ apiKey: "sk-bench", baseURL: `${baseUrl}/v1`, maxRetries: 2 });
const tools = [
  { type: "function", function: { name: "get_ticket", description: "Load a ticket.", parameters: { type: "object" } } },
  {
    type: "function",
    function: {
      name: "submit_output",
      description: "Submit the result.",
      parameters: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
    },
  },
];

async function oneCall(i) {
  const messages = [
    { role: "system", content: "Plan the work." },
    { role: "user", content: `Plan ticket ${i}` },
  ];
  for (let turn = 0; turn < 4; turn++) {
    const reply = await client.chat.completions.create({ model: "fake-model", messages, tools });
    const message = reply.choices[0].message;
    messages.push(message);
    for (const call of message.tool_calls ?? []) {
      if (call.function.name === "submit_output") return JSON.parse(call.function.arguments);
      messages.push({ role: "tool", tool_call_id: call.id, content: "Ticket 7: login times out" });
    }
  }
  throw new Error("no output");
}

const started = performance.now();
const cpu0 = process.cpuUsage();
let next = 0;
let done = 0;
async function worker() {
  while (next < calls) {
    const i = next++;
    await oneCall(i);
    done++;
  }
}
await Promise.all(Array.from({ length: jobs }, worker));
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ done, wall_ms: Math.round(performance.now() - started), cpu_ms: Math.round((cpu.user + cpu.system) / 1000) }));
