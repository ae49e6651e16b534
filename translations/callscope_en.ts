<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>Assertions</name>
    <message numerus="yes">
        <source>%1 was called %n time(s)</source>
        <translation>
            <numerusform>%1 was called %n time</numerusform>
            <numerusform>%1 was called %n times</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CacheReport</name>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n hour</numerusform>
            <numerusform>%n hours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n minute</numerusform>
            <numerusform>%n minutes</numerusform>
        </translation>
    </message>
</context>
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
    <name>Callscope::BudgetView</name>
    <message numerus="yes">
        <source>The newest %n large tool result(s) go in full; older ones too while they fit in %1, %2.</source>
        <translation>
            <numerusform>The newest large tool result goes in full; older ones too while they fit in %1, %2.</numerusform>
            <numerusform>The newest %n large tool results go in full; older ones too while they fit in %1, %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Large tool results (over 500 characters): %n</source>
        <translation>
            <numerusform>Large tool results (over 500 characters): %n</numerusform>
            <numerusform>Large tool results (over 500 characters): %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sent in full</source>
        <translation>
            <numerusform>%n sent in full</numerusform>
            <numerusform>%n sent in full</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n replaced by a short note</source>
        <translation>
            <numerusform>%n replaced by a short note</numerusform>
            <numerusform>%n replaced by a short note</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>images: %n</source>
        <translation>
            <numerusform>images: %n</numerusform>
            <numerusform>images: %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n left out</source>
        <translation>
            <numerusform>%n left out</numerusform>
            <numerusform>%n left out</numerusform>
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
    <name>Callscope::ExperimentView</name>
    <message numerus="yes">
        <source>%n label(s) by people; the experiment has no judge to compare them with.</source>
        <translation>
            <numerusform>%n label by people; the experiment has no judge to compare it with.</numerusform>
            <numerusform>%n labels by people; the experiment has no judge to compare them with.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n part(s) of %1 were left out: %2</source>
        <translation>
            <numerusform>%n part of %1 was left out: %2</numerusform>
            <numerusform>%n parts of %1 were left out: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Experiment stopped: %1 of %n run(s) done</source>
        <translation>
            <numerusform>Experiment stopped: %1 of %n run done</numerusform>
            <numerusform>Experiment stopped: %1 of %n runs done</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Experiment finished: %n run(s)</source>
        <translation>
            <numerusform>Experiment finished: %n run</numerusform>
            <numerusform>Experiment finished: %n runs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 = %n run(s). Press Run to start.</source>
        <translation>
            <numerusform>%1 = %n run. Press Run to start.</numerusform>
            <numerusform>%1 = %n runs. Press Run to start.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Running experiment %1: %2 of %n run(s) done, %3 not passed, %4 in flight (at most %5 at once; Preferences › Limits).</source>
        <translation>
            <numerusform>Running experiment %1: %2 of %n run done, %3 not passed, %4 in flight (at most %5 at once; Preferences › Limits).</numerusform>
            <numerusform>Running experiment %1: %2 of %n runs done, %3 not passed, %4 in flight (at most %5 at once; Preferences › Limits).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Experiment %1 (%2) is incomplete: %3 of %n run(s) done. Resume runs the rest.</source>
        <translation>
            <numerusform>Experiment %1 (%2) is incomplete: %3 of %n run done. Resume runs the rest.</numerusform>
            <numerusform>Experiment %1 (%2) is incomplete: %3 of %n runs done. Resume runs the rest.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Experiment %1 (%2): all %n run(s) done. %3</source>
        <translation>
            <numerusform>Experiment %1 (%2): the %n run is done. %3</numerusform>
            <numerusform>Experiment %1 (%2): all %n runs done. %3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::HistoryRescueDialog</name>
    <message numerus="yes">
        <source>Parts of the file cannot be read (SQLite&apos;s check found %n problem(s); the first: %1).</source>
        <translation>
            <numerusform>Parts of the file cannot be read (SQLite&apos;s check found %n problem; the first: %1).</numerusform>
            <numerusform>Parts of the file cannot be read (SQLite&apos;s check found %n problems; the first: %1).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Newest good backup: %1, with %n call(s).</source>
        <translation>
            <numerusform>Newest good backup: %1, with %n call.</numerusform>
            <numerusform>Newest good backup: %1, with %n calls.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The backup is back in place, with %n call(s).</source>
        <translation>
            <numerusform>The backup is back in place, with %n call.</numerusform>
            <numerusform>The backup is back in place, with %n calls.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) could be read into the new history.</source>
        <translation>
            <numerusform>%n call could be read into the new history.</numerusform>
            <numerusform>%n calls could be read into the new history.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::MainWindow</name>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n error</numerusform>
            <numerusform>%n errors</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n warning</numerusform>
            <numerusform>%n warnings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n note(s)</source>
        <translation>
            <numerusform>%n note</numerusform>
            <numerusform>%n notes</numerusform>
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
            <numerusform>It printed %n line that was not JSON-RPC; the first: %1</numerusform>
            <numerusform>It printed %n lines that were not JSON-RPC; the first: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::PartialOutputModel</name>
    <message numerus="yes">
        <source>%n field(s)</source>
        <translation>
            <numerusform>%n field</numerusform>
            <numerusform>%n fields</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, %n invalid</source>
        <translation>
            <numerusform>%1, %n invalid</numerusform>
            <numerusform>%1, %n invalid</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::ReviewQueue</name>
    <message numerus="yes">
        <source>%1 of %n run(s) labelled</source>
        <translation>
            <numerusform>%1 of %n run labelled</numerusform>
            <numerusform>%1 of %n runs labelled</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n skipped</source>
        <translation>
            <numerusform>%n skipped</numerusform>
            <numerusform>%n skipped</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::RunPanel</name>
    <message numerus="yes">
        <source>[%n more bytes not kept]</source>
        <translation>
            <numerusform>[%n more byte not kept]</numerusform>
            <numerusform>[%n more bytes not kept]</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n message</numerusform>
            <numerusform>%n messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s)</source>
        <translation>
            <numerusform>%n tool</numerusform>
            <numerusform>%n tools</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The answer could no longer match the schema at %1: %2. The reply was cut off after %n byte(s), and the correction goes to the model.</source>
        <translation>
            <numerusform>The answer could no longer match the schema at %1: %2. The reply was cut off after %n byte, and the correction goes to the model.</numerusform>
            <numerusform>The answer could no longer match the schema at %1: %2. The reply was cut off after %n bytes, and the correction goes to the model.</numerusform>
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
    <name>Callscope::StreamCheck</name>
    <message numerus="yes">
        <source>longer than %n characters</source>
        <translation>
            <numerusform>longer than %n character</numerusform>
            <numerusform>longer than %n characters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::TrustStore</name>
    <message numerus="yes">
        <source>this file is not trusted, and running it would do %n thing(s) on this computer:</source>
        <translation>
            <numerusform>this file is not trusted, and running it would do %n thing on this computer:</numerusform>
            <numerusform>this file is not trusted, and running it would do %n things on this computer:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message numerus="yes">
        <source>, %n request(s) waiting for %1 s</source>
        <translation>
            <numerusform>, %n request waiting for %1 s</numerusform>
            <numerusform>, %n requests waiting for %1 s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; round %1, %n provider batch(es) open</source>
        <translation>
            <numerusform>; round %1, %n provider batch open</numerusform>
            <numerusform>; round %1, %n provider batches open</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>eval: %n answer(s) could not be stored in the history; those kept in %1 are stored by the next run</source>
        <translation>
            <numerusform>eval: %n answer could not be stored in the history; if it was kept in %1, the next run stores it</numerusform>
            <numerusform>eval: %n answers could not be stored in the history; those kept in %1 are stored by the next run</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>batch %1: %n answer(s) could not be stored in the history; those kept in %2 are stored by the next run</source>
        <translation>
            <numerusform>batch %1: %n answer could not be stored in the history; if it was kept in %2, the next run stores it</numerusform>
            <numerusform>batch %1: %n answers could not be stored in the history; those kept in %2 are stored by the next run</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) that an earlier run could not store were stored from %1</source>
        <translation>
            <numerusform>%n call that an earlier run could not store was stored from %1</numerusform>
            <numerusform>%n calls that an earlier run could not store were stored from %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n case(s) regressed against experiment %1, more than chance explains (see &quot;baseline&quot;)</source>
        <translation>
            <numerusform>%n case regressed against experiment %1, more than chance explains (see &quot;baseline&quot;)</numerusform>
            <numerusform>%n cases regressed against experiment %1, more than chance explains (see &quot;baseline&quot;)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>OTLP export: %n span(s) not delivered (see docs/telemetry.md)</source>
        <translation>
            <numerusform>OTLP export: %n span not delivered (see docs/telemetry.md)</numerusform>
            <numerusform>OTLP export: %n spans not delivered (see docs/telemetry.md)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) from the local queue were sent to the shared history at %1</source>
        <translation>
            <numerusform>%n call from the local queue was sent to the shared history at %1</numerusform>
            <numerusform>%n calls from the local queue were sent to the shared history at %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>HistoryQueue</name>
    <message numerus="yes">
        <source>%n call(s) wait to be sent to the shared history at %1</source>
        <translation>
            <numerusform>%n call waits to be sent to the shared history at %1</numerusform>
            <numerusform>%n calls wait to be sent to the shared history at %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Review</name>
    <message numerus="yes">
        <source>%1 agrees with people on %2 of %n run(s) (%3%)</source>
        <translation>
            <numerusform>%1 agrees with people on %2 of %n run (%3%)</numerusform>
            <numerusform>%1 agrees with people on %2 of %n runs (%3%)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Store</name>
    <message numerus="yes">
        <source>(and %n more problem(s))</source>
        <translation>
            <numerusform>(and %n more problem)</numerusform>
            <numerusform>(and %n more problems)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TelemetrySettings</name>
    <message numerus="yes">
        <source>The keychain is gone: %n header value(s) not read.</source>
        <translation>
            <numerusform>The keychain is gone: %n header value not read.</numerusform>
            <numerusform>The keychain is gone: %n header values not read.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TransferController</name>
    <message numerus="yes">
        <source>Exported %n call(s) to %1.</source>
        <translation>
            <numerusform>Exported %n call to %1.</numerusform>
            <numerusform>Exported %n calls to %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported %n call(s)</source>
        <translation>
            <numerusform>Imported %n call</numerusform>
            <numerusform>Imported %n calls</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n session(s) from %1.</source>
        <translation>
            <numerusform> and %n session from %1.</numerusform>
            <numerusform> and %n sessions from %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nothing new in %1: its %n call(s) are already in this history.</source>
        <translation>
            <numerusform>Nothing new in %1: its %n call is already in this history.</numerusform>
            <numerusform>Nothing new in %1: its %n calls are already in this history.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) were already in this history and were not stored again.</source>
        <translation>
            <numerusform>%n call was already in this history and was not stored again.</numerusform>
            <numerusform>%n calls were already in this history and were not stored again.</numerusform>
        </translation>
    </message>
</context>
</TS>
