<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>Callscope::BudgetModel</name>
    <message numerus="yes">
        <source>(%n line(s))</source>
        <translation>
            <numerusform>(%n line)</numerusform>
            <numerusform>(%n lines)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::CallJob</name>
    <message numerus="yes">
        <source>nothing to fold: the session holds %n message(s) the model sees</source>
        <translation>
            <numerusform>nothing to fold: the session holds %n message the model sees</numerusform>
            <numerusform>nothing to fold: the session holds %n messages the model sees</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::CallTab</name>
    <message numerus="yes">
        <source>%n tool argument(s) edited by you at a pause.</source>
        <translation>
            <numerusform>%n tool argument edited by you at a pause.</numerusform>
            <numerusform>%n tool arguments edited by you at a pause.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool result(s) edited by you at a pause.</source>
        <translation>
            <numerusform>%n tool result edited by you at a pause.</numerusform>
            <numerusform>%n tool results edited by you at a pause.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The output passed validation after %n correction(s).</source>
        <translation>
            <numerusform>The output passed validation after %n correction.</numerusform>
            <numerusform>The output passed validation after %n corrections.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool call(s)</source>
        <translation>
            <numerusform>%n tool call</numerusform>
            <numerusform>%n tool calls</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::DiffView</name>
    <message numerus="yes">
        <source>%n difference(s)</source>
        <translation>
            <numerusform>%n difference</numerusform>
            <numerusform>%n differences</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::HistoryRescueDialog</name>
    <message numerus="yes">
        <source>Parts of the file cannot be read (SQLite&apos;s check found %n problem(s); the first: %1).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Newest good backup: %1, with %n call(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The backup is back in place, with %n call(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) could be read into the new history.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::McpServerPanel</name>
    <message numerus="yes">
        <source>%n tool(s) on &quot;%1&quot;.</source>
        <translation>
            <numerusform>%n tool on &quot;%1&quot;.</numerusform>
            <numerusform>%n tools on &quot;%1&quot;.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::McpToolkit</name>
    <message numerus="yes">
        <source>It printed %n line(s) that were not JSON-RPC; the first: %1</source>
        <translation>
            <numerusform>It printed %n line that were not JSON-RPC; the first: %1</numerusform>
            <numerusform>It printed %n lines that were not JSON-RPC; the first: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::RunPanel</name>
    <message numerus="yes">
        <source>Before the request of turn %1: %n message(s), %2 tool(s) offered. The system prompt:</source>
        <translation>
            <numerusform>Before the request of turn %1: %n message, %2 tool(s) offered. The system prompt:</numerusform>
            <numerusform>Before the request of turn %1: %n messages, %2 tool(s) offered. The system prompt:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>[%n more bytes not kept]</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::Runner</name>
    <message numerus="yes">
        <source>no valid output within %n turn(s)</source>
        <translation>
            <numerusform>no valid output within %n turn</numerusform>
            <numerusform>no valid output within %n turns</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::SessionView</name>
    <message numerus="yes">
        <source>Fold all but the newest %n message(s) into a rolling summary (a call of kind compaction, on the chat engine). No message is deleted.</source>
        <translation>
            <numerusform>Fold all but the newest %n message into a rolling summary (a call of kind compaction, on the chat engine). No message is deleted.</numerusform>
            <numerusform>Fold all but the newest %n messages into a rolling summary (a call of kind compaction, on the chat engine). No message is deleted.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::SpecFormEditor</name>
    <message numerus="yes">
        <source>Sent to %1 with %n change(s); the reply is validated against the schema on the left.</source>
        <translation>
            <numerusform>Sent to %1 with %n change; the reply is validated against the schema on the left.</numerusform>
            <numerusform>Sent to %1 with %n changes; the reply is validated against the schema on the left.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::SpecTab</name>
    <message numerus="yes">
        <source>This spec cannot run: %1 (and %n more in Findings)</source>
        <translation>
            <numerusform>This spec cannot run: %1 (and %n more in Findings)</numerusform>
            <numerusform>This spec cannot run: %1 (and %n more in Findings)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message numerus="yes">
        <source>eval: %n answer(s) could not be stored in the history; those kept in %1 are stored by the next run</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>batch %1: %n answer(s) could not be stored in the history; those kept in %2 are stored by the next run</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) that an earlier run could not store were stored from %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
</TS>
