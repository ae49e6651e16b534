<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name>CallDiff</name>
    <message>
        <source>Refusal: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[attachment %1]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in / %2 out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 cached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 reasoning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 %2 · %3 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parent #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1 / %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (turn %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(error) </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turns / attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope</name>
    <message>
        <source>Cancelled; nothing was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The history cannot be opened: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the rows…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The export failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving the file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Exported %n call(s) to %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parsing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not valid JSON: %2 at byte %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the document…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a Callscope export: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a Callscope export: %2 (at %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing the rows…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The import failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The import failed: %1 (at %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Imported %n call(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n session(s) from %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::ApprovalPanel</name>
    <message>
        <source>Always allow this tool for the rest of the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Approve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit Arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;fuse</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Submit Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Submit as &amp;Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool call arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason for refusing, sent to the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason sent to the model when you refuse (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the tool with these arguments (Ctrl+Return)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the arguments, then approve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not run the tool; the model gets the reason as an error result (Ctrl+Shift+Backspace)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool result to send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type or paste the tool&apos;s result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Approve Edited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model wants to run &quot;%1&quot; (call %2). It needs your approval.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a manual tool: type its result for call %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments are not valid JSON: %1 (at offset %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments must be a JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::AttachmentModel</name>
    <message>
        <source>%1 is not a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is larger than %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2, %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2 bytes, %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::BudgetModel</name>
    <message>
        <source>kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stubbed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one of the newest N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>within the budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>over the budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outside the newest N (budget 0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error results always pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>short (500 characters or fewer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no limit set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>system prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>message %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>(%n line(s))</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 chars</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 → %2 chars</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message / part</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens (est.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stub or note actually sent</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::BudgetView</name>
    <message>
        <source>Request:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call %1 · %2 · %3 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This call has no recorded request reports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Large tool results: %1, kept %2, stubbed %3 · kept size %4 of %5 chars · images %6, dropped %7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request: %1 → %2 chars, about %3 → %4 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (the provider counted %1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::CallService</name>
    <message>
        <source>another call is still running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no engine profile named &quot;%1&quot; (list them with: callscope-cli engines list)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sessions need the history database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replaying call %1 needs the history database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot replay call %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no network access for engine %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>engine type %1 cannot be used here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>revising a call needs the history database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot revise call %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>call %1 has no usable spec stored: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replaying a call needs the history database</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::CallView</name>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(accepted output)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refusal: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[attachment %1, %2, %3 bytes]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… (%1 characters in all)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transcript</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No call selected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call %1 · %2 · %3 · %4 %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parent %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::CommandJob</name>
    <message>
        <source>Tool &quot;%1&quot; timed out after %2 ms; the process was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; was not run: its arguments are not a JSON object (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; has an empty command.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; could not start: its working directory &quot;%2&quot; does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; could not start: program &quot;%2&quot; not found or not executable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; wrote more than %2 bytes to %3: the output was cut at %2 bytes, the process was stopped and the output discarded. It began with:
%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; crashed or was killed by a signal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; failed with exit code %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; wrote to stderr (exit code 0), which counts as a failure.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; could not start program &quot;%2&quot;: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::CommandToolkit</name>
    <message>
        <source>[note: the output was not valid UTF-8; invalid bytes were replaced with U+FFFD]</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::CredentialStore</name>
    <message>
        <source>or give the key for this run only (an environment variable named by the spec&apos;s api_key_env, or a key typed in for this session).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keychain service is running (Secret Service over D-Bus: %1). Start gnome-keyring or KWallet in your desktop session, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The keychain is locked. Unlock your keyring (for example by logging in again or with Seahorse), </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The keychain refused access (%1). Allow Callscope to use your keyring, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The keychain reported an error: %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::DiffModel</name>
    <message>
        <source>Changed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::DiffView</name>
    <message>
        <source>Only differences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>call id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call %1 has no parent; pick the call to compare it with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot compare: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n difference(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::EngineChoiceDialog</name>
    <message>
        <source>Replay on another engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no profile: type and model below)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the provider&apos;s public endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. OPENAI_API_KEY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key variable:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the model to replay on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The base URL must start with http:// or https:// and name a host.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::EngineCodec</name>
    <message>
        <source>The model refused to answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply is not a JSON object: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments are not valid JSON: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments are not a JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[attachment %1 (%2, %3 bytes) was not kept]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Malformed JSON in stream event &quot;%1&quot;: %2 (data: %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The response was blocked (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply is not JSON: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply has no choices.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images returned by the tools:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::EngineProbe</name>
    <message>
        <source>no network access</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an engine of type %1 cannot be tested</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::EngineProfile</name>
    <message>
        <source>the engine profile name is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid engine profile name &apos;%1&apos;: use 1 to 64 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::EnginesPage</name>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: the provider&apos;s public endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>paste a key to store it in the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context window:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The keychain cannot be used, so keys cannot be stored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key stored yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A key is stored. Type a new one to replace it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown: the keychain cannot be asked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the keychain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the model name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The base URL must start with http:// or https:// and name a host.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiles cannot be saved here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An engine named %1 already exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keychain: the key was not stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Storing the key in the keychain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key could not be stored, so %1 was not saved: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine could not be renamed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine could not be saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed %1 and its key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed %1, but its key could not be deleted: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine answered “%1” in %2 ms (key from: %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The test failed (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::HistoryBrowser</name>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search input, output and tools…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only calls started between these two days (both included)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The history could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revision tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff with parent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call %1 could not be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::HistoryModel</name>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in / %2 out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revisions</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::HttpJob</name>
    <message>
        <source>The provider sent nothing for %1 s; the request timed out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request took longer than %1 s and was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not reach the provider: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection to the provider was lost: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection was lost after the reply had started (%1). It was not retried because the model&apos;s partial answer had already been received.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider closed the stream before its end signal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider redirected the request to another origin (%1). Redirects are followed only within the same origin so the API key never leaves it; check the engine&apos;s base URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider answered with an unexpected redirect (HTTP %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider&apos;s reply could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider answered HTTP %1 with a body that could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider&apos;s reply exceeded %1 MiB and was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A stream event exceeded %1 MiB without ending; the stream was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider redirected the request more than %1 times.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This engine type cannot send HTTP requests.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::KeyResolver</name>
    <message>
        <source>The environment variable %1 named by api_key_env is not set (or is empty). Set it to the key, or store a key for the engine profile with &apos;callscope-cli engines add&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::Lint</name>
    <message>
        <source>OpenAI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI-compatible servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output_parser is ignored when a response_schema is set: the output comes from submit_output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tools (counting submit_output) exceed the %2 limit of %3 tools per request; expose only the tools this call needs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool name %1 is not snake_case; use lowercase words joined by &quot;_&quot;, verb first (for example get_ticket)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool name %1 is a single word; name it verb_noun (for example %1_items or get_%1) so the model can tell what it does</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool name %1 breaks the %2 rule for function names (%3); the request will be rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool %1 has no description; say when to use it and when not to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>description is %1 characters; providers cut tool descriptions after %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>objects nest %1 levels deep here; OpenAI strict mode allows %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>objects nest %1 levels deep here; older OpenAI documentation allowed only %2 levels in strict mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 properties exceed OpenAI&apos;s strict-mode limit of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 enum values exceed OpenAI&apos;s strict-mode limit of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>property names and enum values add up to %1 characters; OpenAI&apos;s strict mode allows %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the root is a union (anyOf/oneOf); tool arguments must be one object with &quot;type&quot;: &quot;object&quot; (wrap the union in a property)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the root has no &quot;type&quot;: &quot;object&quot;; providers expect tool arguments to be an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the root has &quot;type&quot; %1; tool arguments must be an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the description lists a closed set (%1); put the values in &quot;enum&quot; so the model cannot invent others</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>maxLength %1 is above the %2 bytes OpenAI documents for one argument string; longer values may be cut off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>object without &quot;additionalProperties&quot;: false; OpenAI strict mode needs it on every object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;additionalProperties&quot; must be false in OpenAI strict mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>property %1 is not in &quot;required&quot;; OpenAI strict mode needs every property there (make it optional with &quot;type&quot;: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; a single-entry allOf can be inlined</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; use anyOf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; state the default in the description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI strict mode does not support %1%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>format %1 is not one OpenAI strict mode supports (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;$ref&quot; has sibling keywords (%1); OpenAI strict mode wants a bare $ref, so they must be inlined into the referenced schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic structured output supports minItems 0 or 1 only; %1 is moved into the description and not enforced (the result is still validated here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic structured output does not enforce %1; it is moved into the description as a hint (the result is still validated here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>format %1 is not one Anthropic structured output supports (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini gets &quot;const&quot; rewritten to a one-value &quot;enum&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is dropped from schemas sent to Gemini, so the model never sees it (the result is still validated here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameter name %1 breaks Gemini&apos;s rule (letters, digits and _, at most 64 characters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recursive &quot;$ref&quot; to %1; Gemini refuses recursive schemas (unroll it to a fixed depth)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool names are snake_case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool names are verb_noun, not a single word</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool names match the provider&apos;s name rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every tool has a description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>descriptions are at most 1024 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no more tools than the provider accepts (OpenAI 128, Anthropic 64)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool and response schemas have an object root</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>closed sets named in a description are an enum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>string arguments fit OpenAI&apos;s 8192-byte limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output_parser has no effect with a response schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI strict: additionalProperties false on every object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI strict: every property is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI strict: no unsupported keywords</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI strict: only supported string formats</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI strict: $ref without sibling keywords</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI strict: nesting depth limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI strict: property, enum and size caps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic structured output: minItems 0 or 1 only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic structured output: keywords it does not enforce</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic structured output: only supported string formats</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini: no recursive $ref</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini: const becomes a one-value enum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini: keywords dropped before sending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini: parameter names [a-zA-Z0-9_]{1,64}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::MainWindow</name>
    <message>
        <source>Callscope</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::McpCallJob</name>
    <message>
        <source>Tool &quot;%1&quot; timed out after %2 ms.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; was not run: its arguments are not a JSON object (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; is no longer available.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it is not running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; could not run: MCP server &quot;%2&quot; is not available: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; could not run: MCP server &quot;%2&quot; is not running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP error %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::McpToolkit</name>
    <message>
        <source>MCP server &quot;%1&quot; did not finish starting within %2 ms.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>It printed %n line(s) that were not JSON-RPC; the first: %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; has no command.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; could not start: its working directory &quot;%2&quot; does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; could not start: program &quot;%2&quot; not found or not executable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; could not start program &quot;%2&quot;: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; refused to initialize: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; answered initialize without a protocol version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; could not list its tools: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; does not offer the tool(s) %2; it lists: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its stderr ended with:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; sent a reply larger than %2 bytes; it was dropped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; crashed or was killed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; exited with code %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; was shut down.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[an image (%1) that could not be decoded]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[image %1: %2, %3 bytes]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[audio: %1, about %2 bytes, not passed on]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[resource link: %1 &lt;%2&gt;]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[resource &lt;%1&gt;]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[resource &lt;%1&gt;: %2, binary, not passed on]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[content of type &quot;%1&quot;: %2]</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::MessageBar</name>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::MockJob</name>
    <message>
        <source>Tool &quot;%1&quot; is no longer available.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::ProfileListModel</name>
    <message>
        <source>A key is stored in the keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The keychain cannot be asked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the keychain…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::ProfileStore</name>
    <message>
        <source>cannot write the settings file %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an engine profile named &apos;%1&apos; already exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no engine profile named &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot rename engine &apos;%1&apos;: its key could not be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot rename engine &apos;%1&apos;: its key could not be stored under the new name: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the engine was renamed, but the key under its old name could not be deleted: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the engine &apos;%1&apos; was removed, but its key could not be deleted from the keychain: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::RawExchangeDialog</name>
    <message>
        <source>Turn %1: raw request and response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw request body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw response body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>R&amp;esponse</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::RevisionTreeModel</name>
    <message>
        <source>original</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>revision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>call %1 not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Made by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::RevisionTreeWidget</name>
    <message>
        <source>Revise…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay on another engine…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay with current spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff with parent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export tree…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a spec in the editor first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call %1 cannot be shown: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-run the selected call&apos;s input with the spec open in the editor (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs need the history database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another call is running; wait for it to finish.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a call first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A revision needs a correction.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revising call %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call %1 has no usable spec stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaying call %1 on %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaying call %1 with the current spec…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revise call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What should the model do differently?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correction sent after the call&apos;s conversation:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run was not stored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call %1 finished: %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::RunPanel</name>
    <message>
        <source>%1
(not a JSON object: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The user&apos;s input for this call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attachments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Break:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts and token usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transcript</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selected transcript entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an entry to see all of it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused at a breakpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending tool arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending tool result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The result is an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What is pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approved with edited arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs with %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs as the model asked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (always allowed for the rest of this run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No reason given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run on another engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the provider&apos;s public endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key environment variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run &amp;There</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>or engine t&amp;ype:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base &amp;URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API &amp;key variable:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;tep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>St&amp;op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw Request/&amp;Response…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Attach Files…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove Attachment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before &amp;request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After re&amp;ply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before &amp;tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After tool res&amp;ult</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On &amp;validation failure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no spec to run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
[attachment: %1, %2, %3]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool call: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result of %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refusal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cut off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reply reached the output limit (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2) needs your approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for a manual result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2) is answered by you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output failed validation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correction sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry %1 in %2 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Before the request of turn %1: %n message(s), %2 tool(s) offered.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>After the reply of turn %1 (finish: %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
→ %1(%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before the tool &quot;%1&quot; runs (call %2). Edit its arguments, then continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After the result of &quot;%1&quot; (call %2). Edit it before the model sees it, then continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The submitted output failed validation; the errors go back to the model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments are not a JSON object: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments edited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2) runs with %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result of %1 (%2), edited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validated result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn limit reached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model refused (%1): %2. You can run the same input on another engine below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 error: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The call was not stored: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No raw request or response for this entry yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running · %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in %1 / out %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (cached %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (reasoning %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turns %1 · attempts %2 · last turn %3 · total %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach Files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none: use the type below)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::Runner</name>
    <message>
        <source>stopped by the user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no engine to run the call on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the response schema is invalid: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a toolkit could not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context gathered before the task follows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Submit the final answer. Call this exactly once, when the task is done; its arguments are the answer and must match the schema.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>no valid output within %n turn(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>HTTP %1%2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model refused (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the reply was cut off at the output limit (max_tokens %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the reply was cut off at the output limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the arguments are not a JSON object: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not run: the output submitted in the same turn was invalid; fix it first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output accepted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not run: the call ended with the submitted output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>submit_output was not accepted in this turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown tool &quot;%1&quot;; the available tools are: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tool &quot;%1&quot; needs a person to type its result and this run is unattended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused: the tool &quot;%1&quot; needs a person&apos;s approval and this run is unattended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a manual tool cannot be pre-seeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused by the user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused by the user: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown tool &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tool &quot;%1&quot; could not be started</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::SessionListModel</name>
    <message>
        <source>renaming session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session %1, started %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::SessionView</name>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run spec in session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compact now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a message (Send), or the input of a spec (Run spec in session)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine of the open spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compacting on demand needs a compaction entry point in the call service, which does not exist yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat engine:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session could not be created: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session could not be renamed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine: %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run spec in session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs the spec open in the editor (%1) on the text typed below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a spec file and run it on the text typed below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick an engine profile for chat turns (or open a spec).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs need the history database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another call is running; wait for it to finish.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select or create a session first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a message first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the reply…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running %1 in the session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run a spec in the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Specs (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The spec %1 cannot be used: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The turn ended %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary so far: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Structured call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>open call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(compacted)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engines and keys</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::SpecEditor</name>
    <message>
        <source>expected exactly one JSON value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spec editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spec sections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Response &amp;schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pre-seeds &amp;&amp; MCP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whole spec as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New Spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Spec…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spec files (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save Spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Spec &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output parser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text output field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>field that takes a plain-text answer (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Maximum turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System &amp;prompt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output &amp;parser:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Te&amp;xt output field:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max &amp;turns:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the provider&apos;s public endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key environment variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Maximum output tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(engine default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(assumed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stream the reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay recording or call id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T&amp;ype:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pro&amp;file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API &amp;key variable:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max &amp;output tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context &amp;window:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Replay from:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Maximum attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reask after a truncated or invalid reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-attempt overrides (JSON array)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max &amp;attempts:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-attempt &amp;schedule:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool results in context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all, in full</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool results token budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unset)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool results character budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images in context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &amp;results in context:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool results to&amp;kens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool results &amp;characters:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Images in context:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Response schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No response schema: the final text goes through the output parser.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add Tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remo&amp;ve Tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool runner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Manual (a person types the result)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mock (canned result)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command and arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>program arg1 &quot;arg 2&quot; (run directly, never through a shell)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mock result (JSON)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requires approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeout in milliseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool input schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>R&amp;unner:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP ser&amp;ver:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Moc&amp;k result:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T&amp;imeout:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input sc&amp;hema:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Describe when to use this tool.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pre-seeded tool calls (JSON array)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP servers (JSON object)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pre-seeded tool calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not valid JSON: %2 (line %3, column %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: expected %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an array of objects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The JSON has an error at line %1, column %2: %3. The form keeps the last valid spec.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a spec is a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>The JSON is not a valid spec (%n problem(s)); the form keeps the last valid spec.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Edit spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open %1:
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Spec As</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spec files (*.spec.json *.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The spec has unsaved changes. Save them first?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::SpecFindingsModel</name>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1, column %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(document)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 [%2]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Location</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::SpecIO</name>
    <message>
        <source>line %1, column %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missing required field %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a boolean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at least %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at most %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected an array of strings (program and arguments, run without a shell), got a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must name at least the program to run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the program that starts the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown value %1 (the only value is &quot;all&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the name &quot;submit_output&quot; is reserved for the tool that returns the response schema&apos;s output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>duplicate tool name %1 (first used at %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown MCP server %1 (mcp_servers has no entry of that name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>more than one runner (%1); give exactly one of command, mcp, manual or mock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no runner; give one of command, mcp, manual (true) or mock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown tool %1 (no entry in tools has that name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown engine type %1 (expected one of %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected an http or https URL such as &quot;http://127.0.0.1:8080&quot;, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected the name of an environment variable (letters, digits and _), not the key itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API keys do not belong in spec files; name an environment variable in api_key_env or a profile whose key is in the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the replay engine answers from a recording file or a stored call id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>null</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown output parser %1 (expected json or text)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the submit_output argument a plain-text answer goes into</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs a response_schema: text_output maps a plain-text answer onto the arguments of submit_output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected an object, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::SseDecoder</name>
    <message>
        <source>The event stream sent a line or event larger than %1 MiB.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::ToolJob</name>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::ToolProcess</name>
    <message>
        <source>
[... cut at %1 bytes]</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::ToolRegistry</name>
    <message>
        <source>Tool &quot;%1&quot; names MCP server &quot;%2&quot;, which the spec does not define.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::TranscriptDelegate</name>
    <message>
        <source>  ·  turn %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  ·  raw available</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::TranscriptModel</name>
    <message>
        <source>Assistant (streaming)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Callscope::TransferController</name>
    <message>
        <source>Export call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the revision tree of call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import calls or a session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Callscope exports (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exporting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export and import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled; nothing was written.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message>
        <source>cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1, column %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: invalid JSON at %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage: callscope-cli export CALL_ID | --session ID [--only] [--out FILE] [--db PATH]

Exports a call and its revisions (--only: the call alone), or a session with
its messages and calls, as one JSON document (format &quot;callscope-export&quot;).
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>export: unknown option %1 (see export --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>export: give either one CALL_ID or --session ID (see export --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage: callscope-cli history [--kind K] [--status S] [--engine E] [--model M]
           [--session ID] [--parent ID] [--search TEXT] [--limit N]
           [--after CURSOR] [--db PATH]

Lists stored calls, newest first, as a JSON array. Each row has a &quot;cursor&quot;;
pass the last one to --after for the next page.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>history: unexpected argument &apos;%1&apos; (see history --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>history: unknown status &apos;%1&apos; (running, completed, failed, turn_limited, cancelled)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>history: --limit must be a number from 1 to 10000, not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>history: --after takes a cursor such as 1764460800000:42, not &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage: callscope-cli import FILE [--db PATH]

Imports an export document; prints the new ids as JSON.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>import: expected one FILE (see import --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>import: cannot read %1: no such file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage: callscope-cli lint SPEC.json [--engine TYPE]

Checks a spec before it spends tokens: tool names, descriptions, closed sets, provider
limits and strict-mode schema rules. Prints the findings as JSON; they are warnings,
so the exit code is 0 even when there are some.

Options:
  --engine TYPE   lint for this engine type instead of the spec&apos;s own
                  (%1)

Exit codes: 0 linted, 2 bad arguments or an unreadable or invalid spec.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--engine needs an engine type (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown engine type &quot;%1&quot; (expected one of %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lint: unknown option %1 (see lint --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lint takes one spec file, got %1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lint needs a spec file: callscope-cli lint SPEC.json [--engine TYPE]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a valid spec (1 error):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a valid spec (%2 errors):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot open the history database %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a usable spec:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read the attachment %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The spec file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The user&apos;s input text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the input text from a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send a file (image or document) with the input.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run inside this session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The history database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow a tool that needs approval.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not keep the call in the history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show this help.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage: callscope-cli run SPEC.json [--input TEXT | --input-file F] [--attach FILE]... [--session ID] [--db PATH] [--allow-tool NAME]... [--no-store]

Runs the spec once, unattended: tools that need approval are refused unless allowed with --allow-tool.
Exit codes: 0 completed, 1 failed, 2 bad arguments or an invalid spec, 3 turn limited.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run needs exactly one spec file (see run --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give either --input or --input-file, not both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--session needs a session id (a number)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--session needs the history: it cannot be combined with --no-store</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The call to revise.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to change.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>revise needs one call id (a number)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>revise needs --correction TEXT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no call %1 in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON Lines: one input per line.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the result lines here instead of stdout.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>usage: batch SPEC.json --inputs FILE.jsonl [--out FILE.jsonl] [--db PATH]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1 is not JSON: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1: cannot read the attachment %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1: expected a JSON string or an object with a string &quot;input&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>batch: %1 inputs, %2 completed, %3 not completed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage: callscope-cli show CALL_ID [--db PATH]

Prints the stored call as JSON.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>show: expected one CALL_ID (see show --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage: callscope-cli validate SCHEMA.json INSTANCE.json [--format-assertion]

Validates a JSON document against a JSON Schema (draft 2020-12) and prints
{&quot;valid&quot;, &quot;errors&quot;: [{&quot;instance_path&quot;, &quot;keyword_location&quot;, &quot;message&quot;}]}.
Relative $refs resolve against the schema file&apos;s folder; nothing is fetched
from the network.

Options:
  --format-assertion   treat &quot;format&quot; (date-time, date, time, duration, email,
                       hostname, ipv4, ipv6, uri, uuid) as an assertion

Exit codes: 0 valid, 1 invalid, 2 bad arguments, an unreadable file or an
invalid schema.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validate: unknown option %1 (see validate --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validate: expected SCHEMA.json INSTANCE.json (see validate --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a valid JSON Schema (2020-12):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot compile the schema:
  %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run a structured call unattended; result as JSON.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run a spec on every line of a JSON Lines file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revise a stored call with a correction.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lint a spec for an engine type; findings as JSON.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Manage engine profiles; keys go to the OS keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validate a JSON document against a JSON Schema 2020-12.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print a stored call, every field, as JSON.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List stored calls, newest first, as a JSON array.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export a call with its revisions, or a session, to JSON.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import an export document; prints the new ids.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage: callscope-cli COMMAND [OPTIONS]

Runs, inspects and stores LLM structured calls without the GUI.
Data goes to stdout as JSON; messages go to stderr.

Commands:
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Options:
  --help       Show this help.
  --version    Show the version.
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown command &apos;%1&apos; (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs a value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a positive number, not &apos;%2&apos;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Cli::Engines</name>
    <message>
        <source>%1 is refused: a key given as an argument shows in the process list. Use --key-env VAR (the key in an environment variable) or --key-stdin.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>option %1 needs a value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown option &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>usage: engines add NAME --type T --model M [--base-url URL] [--context-window N] [--key-env VAR | --key-stdin]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>engines add needs --type (one of: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown engine type &apos;%1&apos; (one of: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>engines add needs --model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid --base-url &apos;%1&apos;: expected http:// or https:// and a host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--context-window needs a positive whole number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--max-tokens needs a positive whole number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--temperature needs a number of 0 or more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give the key either with --key-env or with --key-stdin, not both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the environment variable %1 given by --key-env is not set or empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read the key from stdin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no key on stdin (--key-stdin reads the key from standard input)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an engine profile named &apos;%1&apos; already exists (remove it first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot store the key of engine &apos;%1&apos;; the engine was not added. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>usage: engines list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot tell which engines have a key: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>usage: engines remove NAME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no engine profile named &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>usage: engines test NAME [--key-env VAR]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot test engine &apos;%1&apos;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>engine &apos;%1&apos; of type %2 cannot be tested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>engine &apos;%1&apos; failed the test: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>engines needs a subcommand: list, add, remove or test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown engines subcommand &apos;%1&apos; (list, add, remove or test)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Gui</name>
    <message>
        <source>Desktop studio for engineering LLM calls.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A spec file to open.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JsonSchema</name>
    <message>
        <source>an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a boolean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot resolve reference &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>schema is nested too deeply (more than %1 levels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a schema must be an object or a boolean, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an array of schemas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid regular expression %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a non-negative integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown type %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the schema refers back to itself without consuming any input (a $ref cycle)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>property %1 is not allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no value is allowed here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nesting is too deep (more than %1 levels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> or </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at most %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be less than %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at least %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be greater than %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a multiple of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is %1 characters long, at most %2 allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is %1 characters long, at least %2 required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 does not match the pattern %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a valid %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has %1 items, at most %2 allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has %1 items, at least %2 required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>items %1 and %2 are equal (%3); items must be unique</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an empty array, has %1 items</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no item matches the &quot;contains&quot; schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has %1 matching items, at least %2 required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has %1 matching items, at most %2 allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has %1 properties, at most %2 allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has %1 properties, at least %2 required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>property name %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected property %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (allowed: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missing required property %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>property %1 is required when %2 is present</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>matches %1 of the allowed shapes (%2), exactly one is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, got </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value must be one of </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value must be </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one of </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not match any of the %1 allowed shapes; the closest (%2 %3) fails with:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value must be %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value must be one of %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must not match the schema at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected item at index %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the value does not match the schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>... and %1 more</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Replay</name>
    <message>
        <source>call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a recorded call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/replies: expected an array of model replies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/replies/%1: expected an object with a &quot;message&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/calls: the export holds no call to replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a recording: expected &quot;format&quot;: &quot;callscope-recording&quot;, an export, or a stored call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read the recording %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: invalid JSON at offset %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the recording (%1) holds %2 model replies and the run asked for reply %3: the replayed call no longer fits its recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Store</name>
    <message>
        <source>(document root)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid export document at %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the export-format schema does not compile: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>call id %1 appears twice (first at /calls/%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parent links form a cycle through call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>session id %1 appears twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compaction id %1 appears twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>summary call %1 is not in the document&apos;s calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the range ends before it starts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sequence %1 appears twice in this session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compaction %1 is not one of this session&apos;s compactions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a message needs a role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a Callscope export (format must be &quot;%1&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>export format version %1 is not supported (this Callscope reads version %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot import %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>looking up a call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parent call %1 does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>looking up a session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>session %1 does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>storing call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>storing turn %1 of call %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>storing attempt %1 of call %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>session messages given for a call without a session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>call %1 does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>call %1 cannot be its own parent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>updating call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no call with id %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading the turns of call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading the attempts of call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this database has no search index</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checking integrity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checking foreign keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checking turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checking attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checking session spans</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>storing session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no session with id %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>storing message %1 of session %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading compactions of session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading messages of session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>storing a compaction of session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid compaction range %1..%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>session %1 has no messages %2..%3 to compact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>marking compacted messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>updating session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>database %1 is locked by another program (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>database %1 is damaged (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a Callscope database (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was refused by the database: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot use database %1 (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>database error in %1 (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no database path given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a Callscope database (it is not an SQLite file); it was left untouched</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>opening read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading the schema version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the file was left untouched)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>database %1 has schema version %2, made by a newer Callscope; this version reads up to %3. It was left untouched: use the newer Callscope or another --db.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>opening</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>setting up the connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>database %1 has schema version %2, made by a newer Callscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>migrating to schema version %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading the schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting a transaction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>committing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no open transaction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>creating the search table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading calls to index</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>updating the search index</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
