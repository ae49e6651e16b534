-- Callscope history database, schema version 1 (frozen copy for the migration test).
-- Statements are separated by a line holding only ";".
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    system_prompt TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    summary TEXT NOT NULL DEFAULT '',
    summary_through INTEGER,
    metadata TEXT NOT NULL DEFAULT '{}'
)
;
CREATE TABLE calls (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    status TEXT NOT NULL
        CHECK (status IN ('running', 'completed', 'failed', 'turn_limited', 'cancelled')),
    engine_type TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    finished_at INTEGER,
    parent_id INTEGER REFERENCES calls(id) ON DELETE SET NULL,
    session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
    first_sequence INTEGER,
    last_sequence INTEGER,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    turn_count INTEGER NOT NULL DEFAULT 0,
    attempt_count INTEGER NOT NULL DEFAULT 0,
    error_category TEXT,
    input_preview TEXT NOT NULL DEFAULT '',
    error TEXT,
    system_prompt TEXT NOT NULL DEFAULT '',
    input TEXT NOT NULL DEFAULT '{}',
    response TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    spec TEXT NOT NULL DEFAULT '{}',
    messages TEXT NOT NULL DEFAULT '[]',
    transcript TEXT NOT NULL DEFAULT '[]',
    CHECK (first_sequence IS NULL OR session_id IS NOT NULL)
)
;
CREATE INDEX calls_by_created ON calls(created_at)
;
CREATE INDEX calls_by_kind ON calls(kind, created_at)
;
CREATE INDEX calls_by_status ON calls(status, created_at)
;
CREATE INDEX calls_by_engine ON calls(engine_type, created_at)
;
CREATE INDEX calls_by_model ON calls(model, created_at)
;
CREATE INDEX calls_by_parent ON calls(parent_id)
;
CREATE INDEX calls_by_session ON calls(session_id, first_sequence)
;
CREATE TABLE call_turns (
    call_id INTEGER NOT NULL REFERENCES calls(id) ON DELETE CASCADE,
    turn_index INTEGER NOT NULL,
    finish_reason TEXT NOT NULL,
    raw_finish_reason TEXT NOT NULL DEFAULT '',
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    tool_calls INTEGER NOT NULL DEFAULT 0,
    note TEXT NOT NULL DEFAULT '',
    request_report TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (call_id, turn_index)
)
;
CREATE TABLE call_attempts (
    call_id INTEGER NOT NULL REFERENCES calls(id) ON DELETE CASCADE,
    attempt_index INTEGER NOT NULL,
    turn_index INTEGER NOT NULL,
    outcome TEXT NOT NULL DEFAULT '',
    finish_reason TEXT NOT NULL,
    raw_finish_reason TEXT NOT NULL DEFAULT '',
    http_status INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    delay_ms INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    started_at INTEGER,
    duration_ms INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (call_id, attempt_index)
)
;
CREATE TABLE compactions (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    call_id INTEGER NOT NULL REFERENCES calls(id),
    first_sequence INTEGER NOT NULL,
    last_sequence INTEGER NOT NULL,
    summary TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    CHECK (first_sequence <= last_sequence)
)
;
CREATE INDEX compactions_by_session ON compactions(session_id, id)
;
CREATE TABLE messages (
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    sequence INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    message TEXT NOT NULL,
    send_to_model INTEGER NOT NULL DEFAULT 1 CHECK (send_to_model IN (0, 1)),
    compacted_by INTEGER REFERENCES compactions(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, sequence)
)
;
CREATE INDEX messages_by_compaction ON messages(compacted_by) WHERE compacted_by IS NOT NULL
;
