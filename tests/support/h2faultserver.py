#!/usr/bin/python3
"""A scripted fault-injecting HTTPS server speaking HTTP/2 (ALPN "h2") or HTTP/1.1 over TLS.

It shares nothing with the client under test: the HTTP/2 framing is Debian's python3-h2, the
TLS is Python's ssl module. Started by the tests (tests/support/h2faultserver.h) as

    h2faultserver.py --cert C --key K --script S --log L [--alpn h2,http/1.1]

It prints one line, "PORT <n>", once it listens on 127.0.0.1, then serves until it is killed,
its standard input closes (the test that started it is gone) or --max-seconds have passed.

The script S is a JSON array of behaviours; request k (0-based, counted over all connections)
gets S[min(k, len(S) - 1)]. A behaviour is an object:

    action      "send"          headers, then the body, then the end of the stream
                "reset_after"   headers, the first `reset_after` body bytes, then RST_STREAM
                                (HTTP/1.1: a TCP reset)
                "stall"         headers, then nothing until the client goes
                "drip"          headers, then the body one byte every `drip_ms`
                "pause"         headers, the first `reset_after` body bytes, a pause of
                                `drip_ms`, then the rest and the end of the stream
                "flood"         headers, the body, then `chunk_file` again and again
                "goaway"        no headers: GOAWAY (last stream 0, NO_ERROR), then close
                                (HTTP/1.1: close)
                "drop_in_headers"  half a HEADERS frame (no END_HEADERS), then a TCP reset
                                (HTTP/1.1: half the status line and headers, then a reset)
    status      HTTP status (default 200)
    headers     [[name, value], ...] (names lowercase)
    body_file   the body's bytes (default: empty)
    chunk_file  the bytes a flood repeats
    reset_after body bytes sent before the reset
    reset_when  with "reset_after": a file path; the reset waits until that file exists (the
                test creates it once the client has shown it read the bytes: a TCP reset
                discards what the client's socket holds unread, so resetting earlier would make
                "the client saw the content" a matter of scheduling)
    drip_ms     interval of a drip

The log L gets one JSON object per line, flushed at once:

    {"ev": "connection", "conn": c, "alpn": "h2", "preface": true}
    {"ev": "request", "index": k, "conn": c, "stream": s, "method": "POST", "path": "...",
     "at_ms": t, "body_bytes": n}                       (at_ms: when the head was complete)
    {"ev": "end", "index": k, "sent": n, "at_ms": t, "how": "..."}
                                                        (sent: body bytes the client's flow
                                                         control or socket let us send)

Times are milliseconds since the server started.
"""

import argparse
import json
import os
import select
import socket
import ssl
import struct
import sys
import threading
import time

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import hpack

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
START = time.monotonic()
LOCK = threading.Lock()
REQUESTS = [0]


def now_ms():
    return int((time.monotonic() - START) * 1000)


class Log:
    def __init__(self, path):
        self.f = open(path, "a", buffering=1)
        self.lock = threading.Lock()

    def write(self, **fields):
        with self.lock:
            self.f.write(json.dumps(fields) + "\n")
            self.f.flush()


def next_index():
    with LOCK:
        k = REQUESTS[0]
        REQUESTS[0] += 1
        return k


def read_file(path):
    if not path:
        return b""
    with open(path, "rb") as f:
        return f.read()


def wait_for_trigger(behaviour, limit_s=60.0):
    """Waits until the behaviour's reset_when file exists (at most limit_s seconds)."""
    path = behaviour.get("reset_when")
    if not path:
        return
    end = time.monotonic() + limit_s
    while not os.path.exists(path) and time.monotonic() < end:
        time.sleep(0.01)


def trigger_ready(behaviour):
    path = behaviour.get("reset_when")
    return not path or os.path.exists(path)


def hard_reset(sock):
    """Close with a TCP RST instead of a FIN."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    except OSError:
        pass


class Reply:
    """One stream's answer: what is left to send and when."""

    def __init__(self, index, behaviour):
        self.index = index
        self.b = behaviour
        self.action = behaviour.get("action", "send")
        self.body = read_file(behaviour.get("body_file"))
        self.chunk = read_file(behaviour.get("chunk_file")) if self.action == "flood" else b""
        self.pos = 0  # body bytes sent
        self.sent = 0  # all body bytes sent (floods: past the body too)
        self.headers_sent = False
        self.done = False
        self.next_due = 0.0  # monotonic time of the next drip byte

    def headers(self):
        status = str(self.b.get("status", 200))
        return [(":status", status)] + [(k, v) for k, v in self.b.get("headers", [])]


def serve_h2(sock, conn_id, script, log):
    config = h2.config.H2Configuration(client_side=False, header_encoding="utf-8",
                                       validate_inbound_headers=False)
    conn = h2.connection.H2Connection(config=config)
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    replies = {}  # stream id -> Reply
    heads = {}  # stream id -> (index, headers, at_ms)
    bodies = {}  # stream id -> bytes received

    def flush():
        data = conn.data_to_send()
        if data:
            sock.sendall(data)

    def finish(sid, how):
        r = replies.get(sid)
        if r and not r.done:
            r.done = True
            log.write(ev="end", index=r.index, sent=r.sent, at_ms=now_ms(), how=how)

    def start_reply(sid):
        index, headers, at_ms = heads[sid]
        behaviour = script[min(index, len(script) - 1)]
        log.write(ev="request", index=index, conn=conn_id, stream=sid,
                  method=headers.get(":method"), path=headers.get(":path"), at_ms=at_ms,
                  body_bytes=len(bodies.get(sid, b"")),
                  authorization=bool(headers.get("authorization")))
        r = Reply(index, behaviour)
        replies[sid] = r
        if r.action == "goaway":
            conn.close_connection(error_code=h2.errors.ErrorCodes.NO_ERROR, last_stream_id=0)
            flush()
            finish(sid, "goaway")
            time.sleep(0.05)
            raise ConnectionAbortedError
        if r.action == "drop_in_headers":
            flush()
            block = hpack.Encoder().encode(r.headers())
            half = block[: max(1, len(block) // 2)]
            # HEADERS (type 1), flags 0 (neither END_HEADERS nor END_STREAM).
            frame = struct.pack(">I", len(half))[1:] + bytes([1, 0]) + struct.pack(">I", sid) + half
            sock.sendall(frame)
            finish(sid, "dropped_in_headers")
            time.sleep(0.05)
            hard_reset(sock)
            raise ConnectionAbortedError
        conn.send_headers(sid, r.headers(), end_stream=False)
        r.headers_sent = True
        if r.action == "drip":
            r.next_due = time.monotonic()
        flush()

    def pump(r, sid):
        """Sends what the behaviour and the flow-control window allow; True if more could go now."""
        if r.done or not r.headers_sent:
            return False
        if r.action == "stall":
            return False
        if r.action == "drip":
            t = time.monotonic()
            if t < r.next_due:
                return False
            if r.pos >= len(r.body):
                conn.end_stream(sid)
                flush()
                finish(sid, "complete")
                return False
            if conn.local_flow_control_window(sid) < 1:
                return False
            conn.send_data(sid, r.body[r.pos:r.pos + 1])
            r.pos += 1
            r.sent += 1
            r.next_due = t + r.b.get("drip_ms", 1000) / 1000.0
            flush()
            return False
        if r.action == "pause" and r.next_due and time.monotonic() < r.next_due:
            return False
        window = conn.local_flow_control_window(sid)
        if window <= 0:
            return False
        size = min(window, conn.max_outbound_frame_size, 256 * 1024)
        if r.action == "pause" and not r.next_due:
            limit = int(r.b.get("reset_after", 0))
            if r.pos >= limit:
                r.next_due = time.monotonic() + r.b.get("drip_ms", 1000) / 1000.0
                return False
            size = min(size, limit - r.pos)
        if r.action == "reset_after":
            limit = int(r.b.get("reset_after", 0))
            if r.pos >= limit:
                if not trigger_ready(r.b):
                    return False
                conn.reset_stream(sid, error_code=h2.errors.ErrorCodes.INTERNAL_ERROR)
                flush()
                finish(sid, "reset")
                return False
            size = min(size, limit - r.pos)
        if r.pos < len(r.body):
            piece = r.body[r.pos:r.pos + size]
            r.pos += len(piece)
        elif r.action == "flood":
            # The chunk again and again as one byte stream, cut where the window allows.
            start = (r.sent - len(r.body)) % len(r.chunk)
            piece = (r.chunk[start:] + r.chunk)[:size]
        else:
            conn.end_stream(sid)
            flush()
            finish(sid, "complete")
            return False
        conn.send_data(sid, piece)
        r.sent += len(piece)
        flush()
        return True

    while True:
        busy = False
        for sid, r in list(replies.items()):
            try:
                busy |= pump(r, sid)
            except h2.exceptions.StreamClosedError:
                finish(sid, "stream_closed")
        timeout = 0 if busy else 0.02
        for r in replies.values():
            if r.action in ("drip", "pause") and r.next_due and not r.done:
                timeout = max(0, min(timeout, r.next_due - time.monotonic()))
        if not sock.pending():
            readable, _, _ = select.select([sock], [], [], timeout)
            if not readable:
                continue
        try:
            data = sock.recv(65536)
        except ssl.SSLWantReadError:
            continue
        if not data:
            for sid in list(replies):
                finish(sid, "client_closed")
            return
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.RequestReceived):
                heads[event.stream_id] = (next_index(), dict(event.headers), now_ms())
                if event.stream_ended:
                    start_reply(event.stream_id)
            elif isinstance(event, h2.events.DataReceived):
                bodies[event.stream_id] = bodies.get(event.stream_id, b"") + event.data
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                if event.stream_id in heads and event.stream_id not in replies:
                    start_reply(event.stream_id)
            elif isinstance(event, h2.events.StreamReset):
                finish(event.stream_id, "client_reset")
            elif isinstance(event, h2.events.ConnectionTerminated):
                for sid in list(replies):
                    finish(sid, "client_goaway")
        flush()


def serve_http1(sock, conn_id, script, log):
    buf = b""
    while b"\r\n\r\n" not in buf:
        data = sock.recv(65536)
        if not data:
            return
        buf += data
    head, _, rest = buf.partition(b"\r\n\r\n")
    at_ms = now_ms()
    lines = head.split(b"\r\n")
    method, path = (lines[0].split(b" ") + [b"", b""])[:2]
    length = 0
    auth = False
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
        auth |= name.strip().lower() == b"authorization"
    while len(rest) < length:
        data = sock.recv(65536)
        if not data:
            break
        rest += data
    index = next_index()
    behaviour = script[min(index, len(script) - 1)]
    log.write(ev="request", index=index, conn=conn_id, stream=0, method=method.decode(),
              path=path.decode(), at_ms=at_ms, body_bytes=len(rest), authorization=auth)
    r = Reply(index, behaviour)
    status = int(behaviour.get("status", 200))
    reply_head = "HTTP/1.1 %d X\r\n" % status
    for k, v in behaviour.get("headers", []):
        reply_head += "%s: %s\r\n" % (k, v)
    reply_head = (reply_head + "Connection: close\r\n\r\n").encode()

    def end(how):
        log.write(ev="end", index=index, sent=r.sent, at_ms=now_ms(), how=how)

    try:
        if r.action == "goaway":
            end("goaway")
            sock.close()
            return
        if r.action == "drop_in_headers":
            sock.sendall(reply_head[: len(reply_head) // 2])
            end("dropped_in_headers")
            time.sleep(0.05)
            hard_reset(sock)
            return
        sock.sendall(reply_head)
        if r.action == "stall":
            while sock.recv(65536):
                pass
            end("client_closed")
            return
        if r.action == "drip":
            for i in range(len(r.body)):
                time.sleep(behaviour.get("drip_ms", 1000) / 1000.0)
                sock.sendall(r.body[i:i + 1])
                r.sent += 1
            end("complete")
            sock.close()
            return
        body = r.body
        if r.action == "pause":
            first = int(behaviour.get("reset_after", 0))
            sock.sendall(body[:first])
            r.sent += first
            time.sleep(behaviour.get("drip_ms", 1000) / 1000.0)
            body = body[first:]
        if r.action == "reset_after":
            body = body[: int(behaviour.get("reset_after", 0))]
        for i in range(0, len(body), 65536):
            sock.sendall(body[i:i + 65536])
            r.sent += len(body[i:i + 65536])
        if r.action == "reset_after":
            wait_for_trigger(behaviour)
            end("reset")
            time.sleep(0.05)
            hard_reset(sock)
            return
        while r.action == "flood":
            sock.sendall(r.chunk)
            r.sent += len(r.chunk)
        end("complete")
        sock.close()
    except (OSError, ssl.SSLError):
        end("client_closed")


def handle(raw, conn_id, context, script, log):
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 * 1024)
    try:
        sock = context.wrap_socket(raw, server_side=True)
    except (OSError, ssl.SSLError) as e:
        log.write(ev="tls_failed", conn=conn_id, error=str(e))
        raw.close()
        return
    alpn = sock.selected_alpn_protocol()
    try:
        if alpn == "h2":
            # The client preface must open the connection; it is checked here, then handed on.
            first = b""
            while len(first) < len(PREFACE):
                data = sock.recv(len(PREFACE) - len(first))
                if not data:
                    break
                first += data
            log.write(ev="connection", conn=conn_id, alpn=alpn, preface=first == PREFACE)
            if first != PREFACE:
                sock.close()
                return
            serve_h2(PrefacedSocket(sock, first), conn_id, script, log)
        else:
            log.write(ev="connection", conn=conn_id, alpn=alpn or "", preface=False)
            serve_http1(sock, conn_id, script, log)
    except (ConnectionAbortedError, ConnectionResetError, BrokenPipeError, ssl.SSLError, OSError):
        pass
    finally:
        try:
            sock.close()
        except OSError:
            pass


class PrefacedSocket:
    """The TLS socket, with the already-read preface given back by the first recv()."""

    def __init__(self, sock, preface):
        self.sock = sock
        self.preface = preface

    def recv(self, n):
        if self.preface:
            data, self.preface = self.preface, b""
            return data
        return self.sock.recv(n)

    def pending(self):
        return len(self.preface) + self.sock.pending()

    def __getattr__(self, name):
        return getattr(self.sock, name)


SCRIPT = []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--script", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--alpn", default="h2,http/1.1")
    parser.add_argument("--max-seconds", type=float, default=600)
    args = parser.parse_args()

    def watchdog():
        # Whatever happens to the test, the server stops by itself.
        deadline = time.monotonic() + args.max_seconds
        while time.monotonic() < deadline:
            readable, _, _ = select.select([sys.stdin], [], [], 1.0)
            if readable and not sys.stdin.buffer.read1(4096):
                break
        os._exit(0)

    threading.Thread(target=watchdog, daemon=True).start()
    with open(args.script) as f:
        SCRIPT.extend(json.load(f))
    log = Log(args.log)

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    context.set_alpn_protocols([p for p in args.alpn.split(",") if p])

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print("PORT %d" % listener.getsockname()[1], flush=True)
    conn_id = 0
    while True:
        raw, _ = listener.accept()
        conn_id += 1
        threading.Thread(target=handle, args=(raw, conn_id, context, SCRIPT, log),
                         daemon=True).start()


if __name__ == "__main__":
    main()
