// Decodes an OTLP ExportTraceServiceRequest in protobuf (stdin) with the OpenTelemetry
// JavaScript SDK's code generated from the official opentelemetry-proto definitions, and
// prints it in the OTLP JSON form (ids as hex, 64-bit integers as strings, enums as numbers).
// The fake collector of the telemetry tests runs it as its reference decoder. With --gunzip it
// only inflates a gzip body (Node's zlib, which checks the CRC and the length) and prints the
// bytes as they are.
'use strict';
const path = require('path');
const npmDir = process.env.CALLSCOPE_NPM_DIR || path.join(__dirname, '..', 'npm');
const root = require(path.join(npmDir, 'node_modules', '@opentelemetry', 'otlp-transformer',
                               'build', 'src', 'generated', 'root.js'));
const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
const ids = new Set(['traceId', 'spanId', 'parentSpanId']);

function hexIds(value) {
    if (Array.isArray(value))
        return value.map(hexIds);
    if (value && typeof value === 'object') {
        const out = {};
        for (const [key, item] of Object.entries(value))
            out[key] = ids.has(key) && typeof item === 'string'
                ? Buffer.from(item, 'base64').toString('hex') : hexIds(item);
        return out;
    }
    return value;
}

const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
    if (process.argv.includes('--gunzip')) {
        try {
            process.stdout.write(require('zlib').gunzipSync(Buffer.concat(chunks)));
        } catch (error) {
            process.stderr.write('otlpdecode: ' + error.message + '\n');
            process.exit(1);
        }
        return;
    }
    try {
        const message = Request.decode(Buffer.concat(chunks));
        const object = Request.toObject(message, { longs: String, enums: Number, bytes: String });
        process.stdout.write(JSON.stringify(hexIds(object)));
    } catch (error) {
        process.stderr.write('otlpdecode: ' + error.message + '\n');
        process.exit(1);
    }
});
