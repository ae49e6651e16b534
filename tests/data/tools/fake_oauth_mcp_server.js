// A small MCP server behind OAuth on 127.0.0.1 (plain node, no packages), for tst_tools: the
// protected-resource and authorization-server metadata, dynamic registration, an authorization
// endpoint that redirects at once, a token endpoint that checks PKCE and issues short-lived
// access tokens with refresh tokens, and a Streamable HTTP endpoint (JSON answers) that wants a
// bearer token. The first access token stops working after `EXPIRE_AFTER` MCP requests, so the
// client has to refresh. Prints "listening on PORT" once it listens; the tool "stats" tells
// how many sign-ins and refreshes it saw. PRM_RESOURCE replaces the resource its metadata names.
'use strict';

const http = require('http');
const crypto = require('crypto');

const expireAfter = Number(process.env.EXPIRE_AFTER || 3);
const stats = { authorizations: 0, codeGrants: 0, refreshGrants: 0, registrations: 0, unauthorized: 0,
                resources: [] };
const challenges = new Map(); // code -> code_challenge
const tokens = new Map();     // access token -> { uses, limit }
let counter = 0;
let base = '';

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

function issue(res, limit) {
    counter += 1;
    const access = `access-${counter}-${crypto.randomBytes(6).toString('hex')}`;
    const refresh = `refresh-${counter}-${crypto.randomBytes(6).toString('hex')}`;
    tokens.set(access, { uses: 0, limit });
    json(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh,
                     scope: 'tools' });
}

function mcp(req, res, body) {
    const auth = req.headers.authorization || '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    const entry = tokens.get(token);
    if (!entry || (entry.limit > 0 && entry.uses >= entry.limit)) {
        stats.unauthorized += 1;
        return json(res, 401, { error: 'invalid_token' }, {
            'WWW-Authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        });
    }
    entry.uses += 1;
    const message = JSON.parse(body);
    if (message.id === undefined) {
        res.writeHead(202);
        return res.end();
    }
    const reply = (result) => json(res, 200, { jsonrpc: '2.0', id: message.id, result });
    switch (message.method) {
    case 'initialize':
        return reply({ protocolVersion: '2025-06-18', capabilities: { tools: {} },
                       serverInfo: { name: 'fake-oauth', version: '1.0.0' } });
    case 'tools/list':
        return reply({ tools: [{ name: 'stats', description: 'What the server saw', inputSchema: { type: 'object' },
                                 annotations: { readOnlyHint: true } }] });
    case 'tools/call':
        return reply({ content: [{ type: 'text', text: JSON.stringify(stats) }] });
    default:
        return json(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
}

const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, base);
    const body = await readBody(req);
    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-protected-resource/mcp')
        return json(res, 200, { resource: process.env.PRM_RESOURCE || `${base}/mcp`, authorization_servers: [base],
                                scopes_supported: ['tools'] });
    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server')
        return json(res, 200, { issuer: base, authorization_endpoint: `${base}/authorize`,
                                token_endpoint: `${base}/token`, registration_endpoint: `${base}/register`,
                                response_types_supported: ['code'], code_challenge_methods_supported: ['S256'],
                                grant_types_supported: ['authorization_code', 'refresh_token'],
                                token_endpoint_auth_methods_supported: ['none'] });
    if (req.method === 'POST' && url.pathname === '/register') {
        stats.registrations += 1;
        return json(res, 201, { client_id: `client-${stats.registrations}`, token_endpoint_auth_method: 'none' });
    }
    if (req.method === 'GET' && url.pathname === '/authorize') {
        stats.authorizations += 1;
        stats.resources.push(url.searchParams.get('resource'));
        const code = `code-${stats.authorizations}`;
        challenges.set(code, url.searchParams.get('code_challenge'));
        const target = new URL(url.searchParams.get('redirect_uri'));
        target.searchParams.set('code', code);
        target.searchParams.set('state', url.searchParams.get('state'));
        res.writeHead(302, { Location: target.toString() });
        return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') === 'authorization_code') {
            const challenge = challenges.get(form.get('code'));
            const computed = crypto.createHash('sha256').update(form.get('code_verifier') || '').digest('base64url');
            if (!challenge || challenge !== computed)
                return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE check failed' });
            stats.codeGrants += 1;
            return issue(res, expireAfter);
        }
        if (form.get('grant_type') === 'refresh_token' && (form.get('refresh_token') || '').startsWith('refresh-')) {
            stats.refreshGrants += 1;
            return issue(res, 0);
        }
        return json(res, 400, { error: 'unsupported_grant_type' });
    }
    if (req.method === 'POST' && url.pathname === '/mcp')
        return mcp(req, res, body);
    if (req.method === 'DELETE' && url.pathname === '/mcp') {
        res.writeHead(405);
        return res.end();
    }
    res.writeHead(404);
    res.end();
});

server.listen(0, '127.0.0.1', () => {
    base = `http://127.0.0.1:${server.address().port}`;
    process.stdout.write(`listening on ${server.address().port}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
