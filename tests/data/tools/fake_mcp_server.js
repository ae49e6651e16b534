// A small scripted MCP server (stdio, newline-delimited JSON-RPC) for the edge cases of
// tst_tools that the reference server does not show: pagination, an older protocol version,
// requests and notifications from the server, garbage lines, huge replies, JSON-RPC errors,
// a call that never answers, a server that dies during a call.
'use strict';

const readline = require('readline');

const out = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const schema = { type: 'object', properties: {} };
const totalSchema = { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] };
const pages = [
    [
        { name: 'echo_args', description: 'Returns its arguments as JSON', inputSchema: schema },
        { name: 'huge', description: 'Returns a 2 MB text', inputSchema: schema },
        { name: 'hang', description: 'Never answers', inputSchema: schema },
        { name: 'die', description: 'Exits during the call', inputSchema: schema },
    ],
    [
        { name: 'fail_rpc', description: 'Answers with a JSON-RPC error', inputSchema: schema },
        { name: 'mixed', description: 'Content parts of every kind', inputSchema: schema },
        { name: 'client_answers', description: 'What the client answered to our requests', inputSchema: schema },
        { name: 'cancelled_ids', description: 'Requests the client cancelled', inputSchema: schema },
        { name: 'structured', description: 'Only structured content', inputSchema: schema },
        { name: 'wipe_disk', description: 'Marked destructive', inputSchema: schema,
          annotations: { destructiveHint: true, readOnlyHint: false } },
        { name: 'read_notes', description: 'Read-only (a destructive hint then means nothing)', inputSchema: schema,
          annotations: { readOnlyHint: true, destructiveHint: true } },
        { name: 'typed_good', description: 'Structured content that fits its output schema', inputSchema: schema,
          outputSchema: totalSchema },
        { name: 'typed_bad', description: 'Structured content that breaks its output schema', inputSchema: schema,
          outputSchema: totalSchema },
    ],
];

const clientAnswers = [];
const cancelled = [];

function callTool(id, name, args) {
    const text = (t) => out({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: t }] } });
    switch (name) {
    case 'echo_args':
        return text(JSON.stringify(args));
    case 'huge':
        return text('x'.repeat(2 * 1024 * 1024));
    case 'hang':
        return;
    case 'die':
        process.stderr.write('fake server: dying on purpose\n');
        process.exit(5);
        return;
    case 'fail_rpc':
        return out({ jsonrpc: '2.0', id, error: { code: -32000, message: 'boom' } });
    case 'mixed':
        return out({ jsonrpc: '2.0', id, result: { content: [
            { type: 'text', text: 'first' },
            { type: 'resource_link', name: 'readme', uri: 'file:///tmp/readme.txt' },
            { type: 'resource', resource: { uri: 'mem://note', mimeType: 'text/plain', text: 'note body' } },
            { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
            { type: 'hologram', depth: 3 },
        ] } });
    case 'client_answers':
        return text(JSON.stringify(clientAnswers));
    case 'cancelled_ids':
        return text(JSON.stringify(cancelled));
    case 'structured':
        return out({ jsonrpc: '2.0', id, result: { content: [], structuredContent: { total: 42 } } });
    case 'typed_good':
        return out({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: '{"total":42}' }], structuredContent: { total: 42 } } });
    case 'typed_bad':
        return out({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'many' }], structuredContent: { total: 'many' } } });
    case 'wipe_disk':
    case 'read_notes':
        return text(`${name} ran`);
    default:
        return out({ jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: `unknown tool ${name}` }] } });
    }
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
    let message;
    try {
        message = JSON.parse(line);
    } catch (e) {
        process.stderr.write(`fake server: bad line ${line}\n`);
        return;
    }
    if (message.method === undefined) {
        clientAnswers.push(message);
        return;
    }
    switch (message.method) {
    case 'initialize':
        process.stdout.write('this line is not JSON\n');
        out({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello' } });
        out({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list', params: {} });
        out({ jsonrpc: '2.0', id: 'srv-2', method: 'ping' });
        out({ jsonrpc: '2.0', id: message.id, result: {
            protocolVersion: '2024-11-05',
            capabilities: { tools: {} },
            serverInfo: { name: 'fake-mcp', version: '1.2.3' },
        } });
        return;
    case 'notifications/initialized':
        return;
    case 'notifications/cancelled':
        cancelled.push(message.params.requestId);
        return;
    case 'tools/list': {
        const page = message.params && message.params.cursor === 'page-2' ? 1 : 0;
        const result = { tools: pages[page] };
        if (page === 0)
            result.nextCursor = 'page-2';
        return out({ jsonrpc: '2.0', id: message.id, result });
    }
    case 'tools/call':
        return callTool(message.id, message.params.name, message.params.arguments);
    default:
        if (message.id !== undefined)
            out({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
});
rl.on('close', () => process.exit(0));
