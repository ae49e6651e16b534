// A Streamable HTTP MCP server on 127.0.0.1 (plain node, no packages) whose sessions end: each
// session answers `SESSION_REQUESTS` requests (after its initialize), then it is forgotten and
// every message sent in it gets HTTP 404, as a server does after a restart or an expiry. With
// `REFUSE_NEW=1` a second initialize is refused. Prints "listening on PORT"; the tool "stats"
// tells how many sessions started, how many 404s were sent and how many times each tool ran.
'use strict';

const http = require('http');
const crypto = require('crypto');

const perSession = Number(process.env.SESSION_REQUESTS || 2);
const refuseNew = process.env.REFUSE_NEW === '1';
const sessions = new Map(); // id -> requests answered
const stats = { initializes: 0, notFound: 0, initialized: 0, echoes: 0 };

function json(res, status, body, headers = {}) {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
}

function readBody(req) {
    return new Promise((resolve) => {
        let data = '';
        req.on('data', (c) => { data += c; });
        req.on('end', () => resolve(data));
    });
}

function mcp(req, res, body) {
    const message = JSON.parse(body);
    const session = req.headers['mcp-session-id'];
    if (message.method === 'initialize') {
        stats.initializes += 1;
        if (refuseNew && stats.initializes > 1)
            return json(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32000, message: 'no more sessions' } });
        const id = crypto.randomBytes(8).toString('hex');
        sessions.set(id, 0);
        return json(res, 200, { jsonrpc: '2.0', id: message.id,
                                result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} },
                                          serverInfo: { name: 'fake-session', version: '1.0.0' } } },
                    { 'Mcp-Session-Id': id });
    }
    if (!session)
        return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'no session' } });
    if (!sessions.has(session)) {
        stats.notFound += 1;
        return json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'session not found' } });
    }
    if (message.id === undefined) {
        if (message.method === 'notifications/initialized')
            stats.initialized += 1;
        res.writeHead(202);
        return res.end();
    }
    const answered = sessions.get(session) + 1;
    if (answered >= perSession)
        sessions.delete(session); // this is its last answer
    else
        sessions.set(session, answered);
    const reply = (result) => json(res, 200, { jsonrpc: '2.0', id: message.id, result });
    switch (message.method) {
    case 'tools/list':
        return reply({ tools: [
            { name: 'echo', description: 'Says the text back', annotations: { readOnlyHint: true },
              inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
            { name: 'stats', description: 'What the server saw', inputSchema: { type: 'object' },
              annotations: { readOnlyHint: true } }] });
    case 'tools/call':
        if (message.params.name === 'echo') {
            stats.echoes += 1;
            return reply({ content: [{ type: 'text', text: `echo: ${message.params.arguments.text}` }] });
        }
        return reply({ content: [{ type: 'text', text: JSON.stringify(stats) }] });
    default:
        return json(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
}

const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.method === 'POST' && req.url === '/mcp')
        return mcp(req, res, body);
    res.writeHead(405);
    res.end();
});

server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening on ${server.address().port}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
