<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name>Assertions</name>
    <message>
        <source>the call has no output (status %1)</source>
        <translation>der Aufruf hat keine Ausgabe (Status %1)</translation>
    </message>
    <message>
        <source>nothing at %1 in the output</source>
        <translation>nichts bei %1 in der Ausgabe</translation>
    </message>
    <message>
        <source>needs &quot;pointer&quot; (a JSON Pointer such as /title, or &quot;&quot; for the whole output)</source>
        <translation>braucht &quot;pointer&quot; (einen JSON Pointer wie /title oder &quot;&quot; für die gesamte Ausgabe)</translation>
    </message>
    <message>
        <source>&quot;pointer&quot; is not a JSON Pointer: %1</source>
        <translation>&quot;pointer&quot; ist kein JSON Pointer: %1</translation>
    </message>
    <message>
        <source>needs a number &quot;value&quot;</source>
        <translation>braucht eine Zahl &quot;value&quot;</translation>
    </message>
    <message>
        <source>%1 was %2, above %3</source>
        <translation>%1 war %2, über %3</translation>
    </message>
    <message>
        <source>needs &quot;value&quot;</source>
        <translation>braucht &quot;value&quot;</translation>
    </message>
    <message>
        <source>expected %1, got %2</source>
        <translation>%1 erwartet, %2 erhalten</translation>
    </message>
    <message>
        <source>%1 does not contain %2</source>
        <translation>%1 enthält %2 nicht</translation>
    </message>
    <message>
        <source>needs a string &quot;pattern&quot;</source>
        <translation>braucht eine Zeichenkette &quot;pattern&quot;</translation>
    </message>
    <message>
        <source>&quot;pattern&quot; is not a valid regular expression: %1</source>
        <translation>&quot;pattern&quot; ist kein gültiger regulärer Ausdruck: %1</translation>
    </message>
    <message>
        <source>%1 does not match /%2/</source>
        <translation>%1 passt nicht auf /%2/</translation>
    </message>
    <message>
        <source>needs an array &quot;values&quot;</source>
        <translation>braucht ein Array &quot;values&quot;</translation>
    </message>
    <message>
        <source>%1 is none of %2</source>
        <translation>%1 ist keiner der Werte %2</translation>
    </message>
    <message>
        <source>&quot;pointers&quot; must be an array of JSON Pointers</source>
        <translation>&quot;pointers&quot; muss ein Array von JSON Pointern sein</translation>
    </message>
    <message>
        <source>&quot;pointers&quot; holds something that is not a JSON Pointer: %1</source>
        <translation>&quot;pointers&quot; enthält etwas, das kein JSON Pointer ist: %1</translation>
    </message>
    <message>
        <source>the case has no &quot;expected&quot;</source>
        <translation>der Fall hat kein &quot;expected&quot;</translation>
    </message>
    <message>
        <source>at %1 expected %2, got %3</source>
        <translation>bei %1 %2 erwartet, %3 erhalten</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <source>needs &quot;schema&quot; (a JSON Schema)</source>
        <translation>braucht &quot;schema&quot; (ein JSON Schema)</translation>
    </message>
    <message>
        <source>&quot;schema&quot; is not usable: %1</source>
        <translation>&quot;schema&quot; ist nicht verwendbar: %1</translation>
    </message>
    <message>
        <source>&quot;value&quot; must be a call status such as completed, failed, turn_limited</source>
        <translation>&quot;value&quot; muss ein Aufrufstatus wie completed, failed, turn_limited sein</translation>
    </message>
    <message>
        <source>the call ended %1, not %2</source>
        <translation>der Aufruf endete mit %1, nicht mit %2</translation>
    </message>
    <message>
        <source>needs the tool&apos;s &quot;name&quot;</source>
        <translation>braucht den &quot;name&quot; des Werkzeugs</translation>
    </message>
    <message>
        <source>&quot;args&quot; must be an object</source>
        <translation>&quot;args&quot; muss ein Objekt sein</translation>
    </message>
    <message>
        <source>%1 was called, never with %2</source>
        <translation>%1 wurde aufgerufen, aber nie mit %2</translation>
    </message>
    <message>
        <source>%1 was not called</source>
        <translation>%1 wurde nicht aufgerufen</translation>
    </message>
    <message>
        <source>needs &quot;names&quot;, an array of tool names</source>
        <translation>braucht &quot;names&quot;, ein Array von Werkzeugnamen</translation>
    </message>
    <message>
        <source>&quot;names&quot; must hold tool names (strings)</source>
        <translation>&quot;names&quot; muss Werkzeugnamen enthalten (Zeichenketten)</translation>
    </message>
    <message>
        <source>the tools ran as [%1], expected [%2]%3</source>
        <translation>die Werkzeuge liefen in der Reihenfolge [%1], erwartet war%3 [%2]</translation>
    </message>
    <message>
        <source> exactly</source>
        <translation> genau</translation>
    </message>
    <message>
        <source>the number of turns</source>
        <translation>die Anzahl der Runden</translation>
    </message>
    <message>
        <source>input + output tokens</source>
        <translation>die Summe der Eingabe- und Ausgabetokens</translation>
    </message>
    <message>
        <source>the latency in ms</source>
        <translation>die Latenz in ms</translation>
    </message>
    <message>
        <source>needs a &quot;rubric&quot;: what a good output is</source>
        <translation>braucht eine &quot;rubric&quot;: was eine gute Ausgabe ist</translation>
    </message>
    <message>
        <source>needs &quot;engine&quot;, the engine that judges (as in a spec)</source>
        <translation>braucht &quot;engine&quot;, die Engine, die bewertet (wie in einer Spezifikation)</translation>
    </message>
    <message>
        <source>&quot;pass_score&quot; must be a number from 0 to 1</source>
        <translation>&quot;pass_score&quot; muss eine Zahl von 0 bis 1 sein</translation>
    </message>
    <message>
        <source>&quot;engine&quot; is not usable: %1%2</source>
        <translation>&quot;engine&quot; ist nicht verwendbar: %1%2</translation>
    </message>
    <message>
        <source>needs &quot;command&quot;, an argument list such as [&quot;python3&quot;, &quot;check.py&quot;]</source>
        <translation>braucht &quot;command&quot;, eine Argumentliste wie [&quot;python3&quot;, &quot;check.py&quot;]</translation>
    </message>
    <message>
        <source>unknown assertion type &quot;%1&quot; (known: %2)</source>
        <translation>unbekannter Zusicherungstyp „%1“ (bekannt: %2)</translation>
    </message>
    <message>
        <source>the assertion type &quot;%1&quot; cannot be checked here</source>
        <translation>der Zusicherungstyp „%1“ kann hier nicht geprüft werden</translation>
    </message>
    <message>
        <source>the command could not start: %1</source>
        <translation>der Befehl konnte nicht starten: %1</translation>
    </message>
    <message>
        <source>the command crashed</source>
        <translation>der Befehl ist abgestürzt</translation>
    </message>
    <message>
        <source>the command exited with %1</source>
        <translation>der Befehl wurde mit %1 beendet</translation>
    </message>
    <message>
        <source>the command took longer than 30 s</source>
        <translation>der Befehl dauerte länger als 30 s</translation>
    </message>
    <message>
        <source>needs &quot;value&quot;, a JavaScript expression or function body</source>
        <translation>braucht &quot;value&quot;, einen JavaScript-Ausdruck oder Funktionsrumpf</translation>
    </message>
    <message>
        <source>&quot;value&quot;: %1</source>
        <translation>&quot;value&quot;: %1</translation>
    </message>
    <message>
        <source>&quot;transform&quot; must be a JavaScript string</source>
        <translation>&quot;transform&quot; muss eine JavaScript-Zeichenkette sein</translation>
    </message>
    <message>
        <source>&quot;transform&quot;: %1</source>
        <translation>&quot;transform&quot;: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 was called %n time(s)</source>
        <translation>
            <numerusform>%1 wurde %n-mal aufgerufen</numerusform>
            <numerusform>%1 wurde %n-mal aufgerufen</numerusform>
        </translation>
    </message>
    <message>
        <source>&quot;schema&quot; must be a JSON Schema</source>
        <translation>&quot;schema&quot; muss ein JSON Schema sein</translation>
    </message>
    <message>
        <source>the output is not JSON: %1</source>
        <translation>die Ausgabe ist kein JSON: %1</translation>
    </message>
    <message>
        <source>the output holds no JSON object or array</source>
        <translation>die Ausgabe enthält kein JSON-Objekt und kein JSON-Array</translation>
    </message>
    <message>
        <source>no JSON in the output matches the schema: %1</source>
        <translation>kein JSON in der Ausgabe passt zum Schema: %1</translation>
    </message>
    <message>
        <source>&quot;not&quot; must be true or false</source>
        <translation>&quot;not&quot; muss true oder false sein</translation>
    </message>
    <message>
        <source>the check passed, and it must not (&quot;not&quot;)</source>
        <translation>die Prüfung ist bestanden, und das darf sie nicht (&quot;not&quot;)</translation>
    </message>
</context>
<context>
    <name>BatchRounds</name>
    <message>
        <source>the batch rounds are gone</source>
        <translation>die Batch-Durchgänge sind nicht mehr vorhanden</translation>
    </message>
    <message>
        <source>The request was cancelled.</source>
        <translation>Die Anfrage wurde abgebrochen.</translation>
    </message>
    <message>
        <source>no batch engine for this run</source>
        <translation>keine Batch-Engine für diesen Lauf</translation>
    </message>
    <message>
        <source>cannot store the provider batch: %1</source>
        <translation>der Anbieter-Batch kann nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>provider batch %1 (round %2) may have been created at the provider, but the request that creates it got no answer; it is not sent again so that nothing is paid twice. Check the provider&apos;s console, then resume with --resubmit-unknown to send these requests again.</source>
        <translation>Anbieter-Batch %1 (Durchgang %2) wurde beim Anbieter möglicherweise angelegt, aber die Anfrage zum Anlegen blieb ohne Antwort; sie wird nicht erneut gesendet, damit nichts doppelt bezahlt wird. Prüfen Sie die Konsole des Anbieters und setzen Sie dann mit --resubmit-unknown fort, um diese Anfragen erneut zu senden.</translation>
    </message>
    <message>
        <source>the provider has no batch with this tag; its requests were sent again</source>
        <translation>der Anbieter hat keinen Batch mit dieser Kennung; seine Anfragen wurden erneut gesendet</translation>
    </message>
    <message>
        <source>never created (the process stopped before its file was uploaded)</source>
        <translation>nie angelegt (der Prozess endete, bevor seine Datei hochgeladen war)</translation>
    </message>
    <message>
        <source>could not poll provider batch %1: %2</source>
        <translation>der Status von Anbieter-Batch %1 konnte nicht abgefragt werden: %2</translation>
    </message>
    <message>
        <source>the provider refused the batch</source>
        <translation>der Anbieter hat den Batch abgelehnt</translation>
    </message>
    <message>
        <source>could not read the results of provider batch %1: %2</source>
        <translation>die Ergebnisse von Anbieter-Batch %1 konnten nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>the line expired in the batch</source>
        <translation>die Zeile ist im Batch abgelaufen</translation>
    </message>
    <message>
        <source>the line was cancelled in the batch</source>
        <translation>die Zeile wurde im Batch abgebrochen</translation>
    </message>
    <message>
        <source>could not cancel provider batch %1: %2</source>
        <translation>Anbieter-Batch %1 konnte nicht abgebrochen werden: %2</translation>
    </message>
    <message>
        <source>cancelled before it was sent</source>
        <translation>abgebrochen, bevor er gesendet wurde</translation>
    </message>
    <message>
        <source>the engine of provider batch %1 is gone</source>
        <translation>die Engine des Anbieter-Batches %1 gibt es nicht mehr</translation>
    </message>
</context>
<context>
    <name>BatchRun</name>
    <message>
        <source>line %1 is not JSON: %2</source>
        <translation>Zeile %1 ist kein JSON: %2</translation>
    </message>
    <message>
        <source>line %1: &quot;attachments&quot; must be an array of file paths</source>
        <translation>Zeile %1: &quot;attachments&quot; muss ein Array von Dateipfaden sein</translation>
    </message>
    <message>
        <source>line %1: expected a JSON string or an object with a string &quot;input&quot;</source>
        <translation>Zeile %1: eine JSON-Zeichenkette oder ein Objekt mit einer Zeichenkette &quot;input&quot; erwartet</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>Zeile %1: %2</translation>
    </message>
    <message>
        <source>%1: line %2 is longer than %3; nothing after it was read</source>
        <translation>%1: Zeile %2 ist länger als %3; danach wurde nichts gelesen</translation>
    </message>
</context>
<context>
    <name>CacheLint</name>
    <message>
        <source>Anthropic: at most 4 cache breakpoints in a request</source>
        <translation>Anthropic: höchstens 4 Cache-Haltepunkte in einer Anfrage</translation>
    </message>
    <message>
        <source>cache breakpoints on parts the request has</source>
        <translation>Cache-Haltepunkte an Teilen, die die Anfrage hat</translation>
    </message>
    <message>
        <source>cache TTLs the engine takes</source>
        <translation>Cache-TTLs, die die Engine annimmt</translation>
    </message>
    <message>
        <source>cache settings this engine does not read</source>
        <translation>Cache-Einstellungen, die diese Engine nicht liest</translation>
    </message>
    <message>
        <source>OpenAI: a prompt_cache_key of at most 64 characters</source>
        <translation>OpenAI: ein prompt_cache_key von höchstens 64 Zeichen</translation>
    </message>
    <message>
        <source>a cached prefix reaches the model&apos;s minimum length</source>
        <translation>ein zwischengespeicherter Präfix erreicht die Mindestlänge des Modells</translation>
    </message>
    <message>
        <source>per-case {{vars}} after the static text of the system prompt</source>
        <translation>{{vars}} je Fall nach dem festen Text des System-Prompts</translation>
    </message>
    <message>
        <source>{{%1}} at character %2 of the system prompt comes before %3 characters of static text: every case sends a different prefix, so no case can read what another cached. Move the per-case text to the end of the system prompt (or into the input).</source>
        <translation>{{%1}} bei Zeichen %2 des System-Prompts steht vor %3 Zeichen festem Text: jeder Fall sendet einen anderen Präfix, also kann kein Fall lesen, was ein anderer im Cache abgelegt hat. Verschieben Sie den Text je Fall an das Ende des System-Prompts (oder in die Eingabe).</translation>
    </message>
    <message>
        <source>%1 cache breakpoints: Anthropic takes at most %2 in a request; the ones after the fourth are not sent</source>
        <translation>%1 Cache-Haltepunkte: Anthropic nimmt höchstens %2 in einer Anfrage; die nach dem vierten werden nicht gesendet</translation>
    </message>
    <message>
        <source>Anthropic caches for &quot;5m&quot; or &quot;1h&quot;, not &quot;%1&quot;; the default five minutes is used</source>
        <translation>Anthropic speichert für &quot;5m&quot; oder &quot;1h&quot;, nicht &quot;%1&quot;; es gelten die voreingestellten fünf Minuten</translation>
    </message>
    <message>
        <source>a breakpoint after the tools, but the spec has no tools</source>
        <translation>ein Haltepunkt nach den Werkzeugen, aber die Spezifikation hat keine Werkzeuge</translation>
    </message>
    <message>
        <source>a breakpoint after the system prompt, but the spec has none</source>
        <translation>ein Haltepunkt nach dem System-Prompt, aber die Spezifikation hat keinen</translation>
    </message>
    <message>
        <source>the prefix up to this breakpoint is about %1 tokens; %2 caches only from %3 tokens, so nothing is cached here</source>
        <translation>der Präfix bis zu diesem Haltepunkt hat etwa %1 Token; %2 speichert erst ab %3 Token, hier wird also nichts gespeichert</translation>
    </message>
    <message>
        <source>the model</source>
        <translation>das Modell</translation>
    </message>
    <message>
        <source>Anthropic has no cache key; &quot;key&quot; is not sent</source>
        <translation>Anthropic hat keinen Cache-Schlüssel; &quot;key&quot; wird nicht gesendet</translation>
    </message>
    <message>
        <source>Anthropic has no retention setting; use &quot;ttl&quot;</source>
        <translation>Anthropic hat keine Aufbewahrungseinstellung; verwenden Sie &quot;ttl&quot;</translation>
    </message>
    <message>
        <source>&quot;explicit&quot; is for Gemini; Anthropic caches at breakpoints</source>
        <translation>&quot;explicit&quot; ist für Gemini; Anthropic speichert an Haltepunkten</translation>
    </message>
    <message>
        <source>OpenAI caches every prompt of %1 tokens or more on its own; breakpoints are not sent</source>
        <translation>OpenAI speichert jeden Prompt ab %1 Token von selbst; Haltepunkte werden nicht gesendet</translation>
    </message>
    <message>
        <source>OpenAI takes &quot;retention&quot; (&quot;in_memory&quot; or &quot;24h&quot;), not &quot;ttl&quot;</source>
        <translation>OpenAI nimmt &quot;retention&quot; (&quot;in_memory&quot; oder &quot;24h&quot;), nicht &quot;ttl&quot;</translation>
    </message>
    <message>
        <source>&quot;explicit&quot; is for Gemini</source>
        <translation>&quot;explicit&quot; ist für Gemini</translation>
    </message>
    <message>
        <source>the cache key is %1 characters; OpenAI takes at most 64</source>
        <translation>der Cache-Schlüssel hat %1 Zeichen; OpenAI nimmt höchstens 64</translation>
    </message>
    <message>
        <source>the static prefix (tools and system prompt) is about %1 tokens; OpenAI caches only prompts of %2 tokens or more</source>
        <translation>der feste Präfix (Werkzeuge und System-Prompt) hat etwa %1 Token; OpenAI speichert nur Prompts ab %2 Token</translation>
    </message>
    <message>
        <source>Gemini has no breakpoints; it caches implicitly, or explicitly with &quot;explicit&quot;</source>
        <translation>Gemini hat keine Haltepunkte; es speichert implizit, oder explizit mit &quot;explicit&quot;</translation>
    </message>
    <message>
        <source>&quot;key&quot; and &quot;retention&quot; are for OpenAI</source>
        <translation>&quot;key&quot; und &quot;retention&quot; sind für OpenAI</translation>
    </message>
    <message>
        <source>Gemini takes a TTL in seconds such as &quot;3600s&quot;, not &quot;%1&quot;</source>
        <translation>Gemini nimmt eine TTL in Sekunden wie &quot;3600s&quot;, nicht &quot;%1&quot;</translation>
    </message>
    <message>
        <source>the system prompt and tools are about %1 tokens; an explicit cache needs at least %2</source>
        <translation>System-Prompt und Werkzeuge haben etwa %1 Token; ein expliziter Cache braucht mindestens %2</translation>
    </message>
</context>
<context>
    <name>CacheReport</name>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n Stunde</numerusform>
            <numerusform>%n Stunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n Minute</numerusform>
            <numerusform>%n Minuten</numerusform>
        </translation>
    </message>
    <message>
        <source>the request marks no cache breakpoint: Anthropic caches only what a breakpoint (&quot;cache&quot;: {&quot;breakpoints&quot;: [...]}) marks</source>
        <translation>die Anfrage setzt keinen Cache-Haltepunkt: Anthropic speichert nur, was ein Haltepunkt (&quot;cache&quot;: {&quot;breakpoints&quot;: [...]}) markiert</translation>
    </message>
    <message>
        <source>below the model&apos;s minimum: the cacheable prefix is about %1 tokens and %2 caches only from %3</source>
        <translation>unter dem Minimum des Modells: der speicherbare Präfix hat etwa %1 Token und %2 speichert erst ab %3</translation>
    </message>
    <message>
        <source>nothing to read yet: no earlier request of this spec on this engine</source>
        <translation>noch nichts zu lesen: keine frühere Anfrage dieser Spezifikation an diese Engine</translation>
    </message>
    <message>
        <source>call %1</source>
        <translation>Aufruf %1</translation>
    </message>
    <message>
        <source>the previous turn</source>
        <translation>die vorige Runde</translation>
    </message>
    <message>
        <source>the %1 is not in %2 (its request had %3 there): the prefix differs from that block on</source>
        <translation>%1 ist nicht in %2 (dessen Anfrage hatte dort %3): ab diesem Block weicht der Präfix ab</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <source>the %1 differs from %2 at character %3: &quot;%4&quot; here, &quot;%5&quot; there</source>
        <translation>%1 weicht von %2 bei Zeichen %3 ab: hier &quot;%4&quot;, dort &quot;%5&quot;</translation>
    </message>
    <message>
        <source>; per-case text comes before the static text of the system prompt, so every case has its own prefix</source>
        <translation>; Text je Fall steht vor dem festen Text des System-Prompts, also hat jeder Fall seinen eigenen Präfix</translation>
    </message>
    <message>
        <source>the entry expired (more than %1 since %2)</source>
        <translation>der Eintrag ist abgelaufen (mehr als %1 seit %2)</translation>
    </message>
    <message>
        <source>the prefix matches %1, but the provider read nothing (a cache entry is not guaranteed; OpenAI routes requests by prompt_cache_key)</source>
        <translation>der Präfix stimmt mit %1 überein, aber der Anbieter hat nichts gelesen (ein Cache-Eintrag ist nicht garantiert; OpenAI verteilt Anfragen nach prompt_cache_key)</translation>
    </message>
    <message>
        <source>tool definitions</source>
        <translation>Werkzeugdefinitionen</translation>
    </message>
    <message>
        <source>system prompt</source>
        <translation>Systemprompt</translation>
    </message>
    <message>
        <source>message %1</source>
        <translation>Nachricht %1</translation>
    </message>
    <message>
        <source>message %1 (%2)</source>
        <translation>Nachricht %1 (%2)</translation>
    </message>
</context>
<context>
    <name>CacheSpec</name>
    <message>
        <source>expected an object</source>
        <translation>ein Objekt erwartet</translation>
    </message>
    <message>
        <source>expected an array of places (&quot;tools&quot;, &quot;system&quot;, &quot;last&quot;, &quot;last_but_one&quot;, a message number, or &quot;auto&quot;)</source>
        <translation>ein Array von Stellen erwartet (&quot;tools&quot;, &quot;system&quot;, &quot;last&quot;, &quot;last_but_one&quot;, eine Nachrichtennummer oder &quot;auto&quot;)</translation>
    </message>
    <message>
        <source>unknown cache breakpoint (expected &quot;tools&quot;, &quot;system&quot;, &quot;last&quot;, &quot;last_but_one&quot;, a message number from 1, or &quot;auto&quot;)</source>
        <translation>unbekannter Cache-Haltepunkt (erwartet: &quot;tools&quot;, &quot;system&quot;, &quot;last&quot;, &quot;last_but_one&quot;, eine Nachrichtennummer ab 1 oder &quot;auto&quot;)</translation>
    </message>
    <message>
        <source>expected a string</source>
        <translation>eine Zeichenkette erwartet</translation>
    </message>
    <message>
        <source>unknown TTL &quot;%1&quot; (expected &quot;5m&quot; or &quot;1h&quot;, or seconds such as &quot;3600s&quot;)</source>
        <translation>unbekannte TTL &quot;%1&quot; (erwartet: &quot;5m&quot; oder &quot;1h&quot;, oder Sekunden wie &quot;3600s&quot;)</translation>
    </message>
    <message>
        <source>unknown retention &quot;%1&quot; (expected &quot;in_memory&quot; or &quot;24h&quot;)</source>
        <translation>unbekannte Aufbewahrung &quot;%1&quot; (erwartet: &quot;in_memory&quot; oder &quot;24h&quot;)</translation>
    </message>
    <message>
        <source>expected true or false</source>
        <translation>true oder false erwartet</translation>
    </message>
</context>
<context>
    <name>CallDiff</name>
    <message>
        <source>Refusal: %1</source>
        <translation>Ablehnung: %1</translation>
    </message>
    <message>
        <source> (error)</source>
        <translation> (Fehler)</translation>
    </message>
    <message>
        <source>[attachment %1]</source>
        <translation>[Anhang %1]</translation>
    </message>
    <message>
        <source>%1 in / %2 out</source>
        <translation>%1 ein / %2 aus</translation>
    </message>
    <message>
        <source>, %1 cached</source>
        <translation>, %1 aus dem Cache</translation>
    </message>
    <message>
        <source>, %1 reasoning</source>
        <translation>, %1 Reasoning</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Aufruf</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
    <message>
        <source>Correction</source>
        <translation>Korrektur</translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation>Werkzeugaufruf</translation>
    </message>
    <message>
        <source>Tool result</source>
        <translation>Werkzeugergebnis</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>#%1 %2 · %3 %4</source>
        <translation>#%1 %2 · %3 %4</translation>
    </message>
    <message>
        <source>parent #%1</source>
        <translation>übergeordnet #%1</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>Systemprompt</translation>
    </message>
    <message>
        <source>Turn %1</source>
        <translation>Runde %1</translation>
    </message>
    <message>
        <source>Turn %1 / %2</source>
        <translation>Runde %1 / %2</translation>
    </message>
    <message>
        <source>%1 (turn %2)</source>
        <translation>%1 (Runde %2)</translation>
    </message>
    <message>
        <source>(error) </source>
        <translation>(Fehler) </translation>
    </message>
    <message>
        <source>%1 result</source>
        <translation>Ergebnis von %1</translation>
    </message>
    <message>
        <source>Turn %1 tokens</source>
        <translation>Tokens in Runde %1</translation>
    </message>
    <message>
        <source>Total tokens</source>
        <translation>Tokens gesamt</translation>
    </message>
    <message>
        <source>Turns / attempts</source>
        <translation>Runden / Versuche</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Output mode</source>
        <translation>Ausgabemodus</translation>
    </message>
    <message>
        <source>   edited by you; the model asked for %1(%2)</source>
        <translation>   von Ihnen bearbeitet; das Modell wollte %1(%2)</translation>
    </message>
    <message>
        <source>Edited by you. The model asked for:</source>
        <translation>Von Ihnen bearbeitet. Das Modell wollte:</translation>
    </message>
    <message>
        <source>   edited by you; the tool returned%1: %2</source>
        <translation>   von Ihnen bearbeitet; das Werkzeug lieferte%1: %2</translation>
    </message>
    <message>
        <source>Edited by you. The tool returned:</source>
        <translation>Von Ihnen bearbeitet. Das Werkzeug lieferte:</translation>
    </message>
    <message>
        <source>repeated from call %1, not sent again</source>
        <translation>aus Aufruf %1 wiederholt, nicht erneut gesendet</translation>
    </message>
    <message>
        <source>repeated, not sent again</source>
        <translation>wiederholt, nicht erneut gesendet</translation>
    </message>
    <message>
        <source>, %1 written to the cache</source>
        <translation>, %1 in den Cache geschrieben</translation>
    </message>
</context>
<context>
    <name>Callscope</name>
    <message>
        <source>the schema nests $ref (or allOf/anyOf/oneOf) %1 levels deep at one place, starting at %2; at most %3 can be checked</source>
        <translation>das Schema verschachtelt $ref (oder allOf/anyOf/oneOf) an einer Stelle %1 Ebenen tief, beginnend bei %2; höchstens %3 können geprüft werden</translation>
    </message>
    <message>
        <source>this schema is too expensive to check: from %1 its allOf/anyOf/oneOf and $ref branches multiply to more than %2 checks of one value</source>
        <translation>dieses Schema ist zu aufwendig zu prüfen: ab %1 vervielfachen sich seine allOf/anyOf/oneOf- und $ref-Zweige auf mehr als %2 Prüfungen eines Werts</translation>
    </message>
</context>
<context>
    <name>Callscope::AppContext</name>
    <message>
        <source>cannot open the history database %1: %2</source>
        <translation>die Verlaufsdatenbank %1 lässt sich nicht öffnen: %2</translation>
    </message>
    <message>
        <source>%1; the local queue %2 cannot be used either: %3</source>
        <translation>%1; die lokale Warteschlange %2 ist auch nicht verwendbar: %3</translation>
    </message>
    <message>
        <source>the history %1 is read-only for the role %2: calls cannot be stored, so none is run; browsing works</source>
        <translation>der Verlauf %1 ist für die Rolle %2 schreibgeschützt: Aufrufe können nicht gespeichert werden, daher wird keiner ausgeführt; Durchsehen funktioniert</translation>
    </message>
</context>
<context>
    <name>Callscope::ApprovalPanel</name>
    <message>
        <source>Always allow this tool for the rest of the run</source>
        <translation>Dieses Werkzeug für den Rest des Laufs immer erlauben</translation>
    </message>
    <message>
        <source>&amp;Approve</source>
        <translation>&amp;Erlauben</translation>
    </message>
    <message>
        <source>&amp;Edit Arguments</source>
        <translation>Argumente &amp;bearbeiten</translation>
    </message>
    <message>
        <source>Re&amp;fuse</source>
        <translation>&amp;Ablehnen</translation>
    </message>
    <message>
        <source>Tool approval</source>
        <translation>Werkzeugfreigabe</translation>
    </message>
    <message>
        <source>Tool call arguments</source>
        <translation>Argumente des Werkzeugaufrufs</translation>
    </message>
    <message>
        <source>Reason for refusing, sent to the model</source>
        <translation>Grund der Ablehnung, wird an das Modell gesendet</translation>
    </message>
    <message>
        <source>Reason sent to the model when you refuse (optional)</source>
        <translation>Grund, der bei einer Ablehnung an das Modell geht (optional)</translation>
    </message>
    <message>
        <source>Run the tool with these arguments (Ctrl+Return)</source>
        <translation>Das Werkzeug mit diesen Argumenten ausführen (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Edit the arguments, then approve</source>
        <translation>Argumente bearbeiten, dann erlauben</translation>
    </message>
    <message>
        <source>Do not run the tool; the model gets the reason as an error result (Ctrl+Shift+Backspace)</source>
        <translation>Das Werkzeug nicht ausführen; das Modell erhält den Grund als Fehlerergebnis (Strg+Umschalt+Rücktaste)</translation>
    </message>
    <message>
        <source>Tool result to send</source>
        <translation>Zu sendendes Werkzeugergebnis</translation>
    </message>
    <message>
        <source>Type or paste the tool&apos;s result</source>
        <translation>Ergebnis des Werkzeugs eingeben oder einfügen</translation>
    </message>
    <message>
        <source>&amp;Approve Edited</source>
        <translation>Bearbeitet &amp;erlauben</translation>
    </message>
    <message>
        <source>The model wants to run &quot;%1&quot; (call %2). It needs your approval.</source>
        <translation>Das Modell möchte „%1“ ausführen (Aufruf %2). Dazu ist Ihre Freigabe nötig.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a manual tool: type its result for call %2.</source>
        <translation>„%1“ ist ein manuelles Werkzeug: Geben Sie sein Ergebnis für Aufruf %2 ein.</translation>
    </message>
    <message>
        <source>The arguments are not valid JSON: %1 (at offset %2)</source>
        <translation>Die Argumente sind kein gültiges JSON: %1 (bei Position %2)</translation>
    </message>
    <message>
        <source>The arguments must be a JSON object.</source>
        <translation>Die Argumente müssen ein JSON-Objekt sein.</translation>
    </message>
    <message>
        <source>&amp;Send Result</source>
        <translation>Ergebnis &amp;senden</translation>
    </message>
    <message>
        <source>Send as &amp;Error</source>
        <translation>Als &amp;Fehler senden</translation>
    </message>
    <message>
        <source>Send this text to the model as the tool&apos;s result (Ctrl+Return)</source>
        <translation>Diesen Text als Ergebnis des Werkzeugs an das Modell senden (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Send this text to the model as the tool&apos;s error</source>
        <translation>Diesen Text als Fehler des Werkzeugs an das Modell senden</translation>
    </message>
    <message>
        <source>&quot;%1&quot; (call %2) is to run with the arguments you edited, not the model&apos;s. It needs your approval.</source>
        <translation>„%1“ (Aufruf %2) soll mit den von Ihnen bearbeiteten Argumenten laufen, nicht mit denen des Modells. Dazu ist Ihre Freigabe nötig.</translation>
    </message>
</context>
<context>
    <name>Callscope::AttachmentModel</name>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 ist keine Datei</translation>
    </message>
    <message>
        <source>%1 is larger than %2</source>
        <translation>%1 ist größer als %2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 (%2, %3)</source>
        <translation>%1 (%2, %3)</translation>
    </message>
    <message>
        <source>%1
%2 bytes, %3</source>
        <translation>%1
%2 Bytes, %3</translation>
    </message>
</context>
<context>
    <name>Callscope::BoundedRead</name>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Byte</translation>
    </message>
    <message>
        <source>cannot read %1: it is a folder, not a file</source>
        <translation>%1 lässt sich nicht lesen: es ist ein Ordner, keine Datei</translation>
    </message>
    <message>
        <source>cannot read %1: it is a device, not a file</source>
        <translation>%1 lässt sich nicht lesen: es ist ein Gerät, keine Datei</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <source>cannot read %1: it is larger than %2, the most read from such a file</source>
        <translation>%1 lässt sich nicht lesen: größer als %2, das Höchste, was aus einer solchen Datei gelesen wird</translation>
    </message>
</context>
<context>
    <name>Callscope::BudgetModel</name>
    <message>
        <source>kept</source>
        <translation>behalten</translation>
    </message>
    <message>
        <source>stubbed</source>
        <translation>durch Platzhalter ersetzt</translation>
    </message>
    <message>
        <source>image dropped</source>
        <translation>Bild entfernt</translation>
    </message>
    <message>
        <source>within the budget</source>
        <translation>innerhalb des Budgets</translation>
    </message>
    <message>
        <source>over the budget</source>
        <translation>über dem Budget</translation>
    </message>
    <message>
        <source>error results always pass</source>
        <translation>Fehlerergebnisse werden immer durchgelassen</translation>
    </message>
    <message>
        <source>short (500 characters or fewer)</source>
        <translation>kurz (höchstens 500 Zeichen)</translation>
    </message>
    <message>
        <source>no limit set</source>
        <translation>keine Grenze gesetzt</translation>
    </message>
    <message>
        <source>image window</source>
        <translation>Bildfenster</translation>
    </message>
    <message>
        <source>system prompt</source>
        <translation>Systemprompt</translation>
    </message>
    <message>
        <source>message %1</source>
        <translation>Nachricht %1</translation>
    </message>
    <message numerus="yes">
        <source>(%n line(s))</source>
        <translation>
            <numerusform>(%n Zeile)</numerusform>
            <numerusform>(%n Zeilen)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 chars</source>
        <translation>%1 Zeichen</translation>
    </message>
    <message>
        <source>%1 → %2 chars</source>
        <translation>%1 → %2 Zeichen</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Message / part</source>
        <translation>Nachricht / Teil</translation>
    </message>
    <message>
        <source>Sent as</source>
        <translation>Gesendet als</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Tokens (est.)</source>
        <translation>Tokens (geschätzt)</translation>
    </message>
    <message>
        <source>Stub or note actually sent</source>
        <translation>Tatsächlich gesendeter Platzhalter oder Hinweis</translation>
    </message>
    <message>
        <source>one of the newest large results</source>
        <translation>eines der neuesten großen Ergebnisse</translation>
    </message>
    <message>
        <source>older than the newest large results, and no room is left for older ones</source>
        <translation>älter als die neuesten großen Ergebnisse, und für ältere ist kein Platz mehr</translation>
    </message>
</context>
<context>
    <name>Callscope::BudgetView</name>
    <message>
        <source>Request:</source>
        <translation>Anfrage:</translation>
    </message>
    <message>
        <source>Call %1 · %2 · %3 %4</source>
        <translation>Aufruf %1 · %2 · %3 %4</translation>
    </message>
    <message>
        <source>Turn %1</source>
        <translation>Runde %1</translation>
    </message>
    <message>
        <source>This call has no recorded request reports.</source>
        <translation>Für diesen Aufruf sind keine Anfrageberichte gespeichert.</translation>
    </message>
    <message>
        <source>Budget: %1</source>
        <translation>Budget: %1</translation>
    </message>
    <message>
        <source> (the provider counted %1)</source>
        <translation> (der Anbieter zählte %1)</translation>
    </message>
    <message>
        <source>No limit: every tool result is sent in full.</source>
        <translation>Kein Limit: jedes Werkzeugergebnis wird vollständig gesendet.</translation>
    </message>
    <message>
        <source>%1 characters</source>
        <translation>%1 Zeichen</translation>
    </message>
    <message>
        <source>%1 tokens (about %2 characters)</source>
        <translation>%1 Token (etwa %2 Zeichen)</translation>
    </message>
    <message>
        <source>the limit set on the engine</source>
        <translation>das Limit der Engine</translation>
    </message>
    <message>
        <source>the limit set in the spec&apos;s context settings</source>
        <translation>das Limit in den Kontexteinstellungen der Spezifikation</translation>
    </message>
    <message>
        <source>a fifth of the engine&apos;s context window</source>
        <translation>ein Fünftel des Kontextfensters der Engine</translation>
    </message>
    <message>
        <source>a fifth of a %1-token context window, assumed because the engine does not give its size</source>
        <translation>ein Fünftel eines Kontextfensters von %1 Token, angenommen, weil die Engine seine Größe nicht angibt</translation>
    </message>
    <message numerus="yes">
        <source>The newest %n large tool result(s) go in full; older ones too while they fit in %1, %2.</source>
        <translation>
            <numerusform>Die neuesten großen Werkzeugergebnisse (%n) gehen vollständig mit; ältere ebenfalls, solange sie in %1 passen, %2.</numerusform>
            <numerusform>Die neuesten großen Werkzeugergebnisse (%n) gehen vollständig mit; ältere ebenfalls, solange sie in %1 passen, %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Large tool results (over 500 characters): %n</source>
        <translation>
            <numerusform>Große Werkzeugergebnisse (über 500 Zeichen): %n</numerusform>
            <numerusform>Große Werkzeugergebnisse (über 500 Zeichen): %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sent in full</source>
        <translation>
            <numerusform>%n vollständig gesendet</numerusform>
            <numerusform>%n vollständig gesendet</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n replaced by a short note</source>
        <translation>
            <numerusform>%n durch eine kurze Notiz ersetzt</numerusform>
            <numerusform>%n durch eine kurze Notiz ersetzt</numerusform>
        </translation>
    </message>
    <message>
        <source>the full ones take %1 of %2 characters</source>
        <translation>die vollständigen belegen %1 von %2 Zeichen</translation>
    </message>
    <message numerus="yes">
        <source>images: %n</source>
        <translation>
            <numerusform>Bilder: %n</numerusform>
            <numerusform>Bilder: %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n left out</source>
        <translation>
            <numerusform>%n weggelassen</numerusform>
            <numerusform>%n weggelassen</numerusform>
        </translation>
    </message>
    <message>
        <source>Request: %1 → %2 characters, about %3 → %4 tokens</source>
        <translation>Anfrage: %1 → %2 Zeichen, etwa %3 → %4 Token</translation>
    </message>
    <message>
        <source>No call is shown.</source>
        <translation>Kein Aufruf angezeigt.</translation>
    </message>
    <message>
        <source>B&amp;udget</source>
        <translation>B&amp;udget</translation>
    </message>
    <message>
        <source>Prompt ca&amp;che</source>
        <translation>Prompt-Ca&amp;che</translation>
    </message>
    <message>
        <source>Reading the prompt cache of call %1…</source>
        <translation>Der Prompt-Cache von Aufruf %1 wird gelesen…</translation>
    </message>
    <message>
        <source>The prompt cache is shown for a stored call.</source>
        <translation>Der Prompt-Cache wird für einen gespeicherten Aufruf gezeigt.</translation>
    </message>
</context>
<context>
    <name>Callscope::CacheView</name>
    <message>
        <source>read from the cache</source>
        <translation>aus dem Cache gelesen</translation>
    </message>
    <message>
        <source>written to the cache</source>
        <translation>in den Cache geschrieben</translation>
    </message>
    <message>
        <source>read from the cache, and more written</source>
        <translation>aus dem Cache gelesen, und mehr geschrieben</translation>
    </message>
    <message>
        <source>missed the cache</source>
        <translation>Cache verfehlt</translation>
    </message>
    <message>
        <source>this engine has no prompt cache</source>
        <translation>diese Engine hat keinen Prompt-Cache</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>Runde</translation>
    </message>
    <message>
        <source>The request&apos;s prefix, block by block</source>
        <translation>Der Präfix der Anfrage, Block für Block</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>Block</translation>
    </message>
    <message>
        <source>Tokens (estimate)</source>
        <translation>Token (geschätzt)</translation>
    </message>
    <message>
        <source>Hash</source>
        <translation>Hash</translation>
    </message>
    <message>
        <source>Breakpoint</source>
        <translation>Haltepunkt</translation>
    </message>
    <message>
        <source>Compared</source>
        <translation>Verglichen</translation>
    </message>
    <message>
        <source>T&amp;urn:</source>
        <translation>&amp;Runde:</translation>
    </message>
    <message>
        <source>read the cache in %1 of %2 turns</source>
        <translation>Cache in %1 von %2 Runden gelesen</translation>
    </message>
    <message>
        <source>%1 tokens read, %2 written, %3 uncached</source>
        <translation>%1 Token gelesen, %2 geschrieben, %3 nicht aus dem Cache</translation>
    </message>
    <message>
        <source>$%1 ($%2 without the cache: %3 $%4)</source>
        <translation>$%1 ($%2 ohne den Cache: %3 $%4)</translation>
    </message>
    <message>
        <source>saved</source>
        <translation>gespart</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>verloren</translation>
    </message>
    <message>
        <source>%1 caches from %2 tokens</source>
        <translation>%1 speichert ab %2 Token</translation>
    </message>
    <message>
        <source>the requests of this call were not kept, so no blocks can be shown</source>
        <translation>die Anfragen dieses Aufrufs wurden nicht aufbewahrt, daher lassen sich keine Blöcke zeigen</translation>
    </message>
    <message>
        <source>Turn %1: %2</source>
        <translation>Runde %1: %2</translation>
    </message>
    <message>
        <source>%1 read · %2 written · %3 uncached</source>
        <translation>%1 gelesen · %2 geschrieben · %3 nicht aus dem Cache</translation>
    </message>
    <message>
        <source>%1 tokens of this request&apos;s prefix were read from the cache.</source>
        <translation>%1 Token des Präfixes dieser Anfrage wurden aus dem Cache gelesen.</translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation>Grund: %1</translation>
    </message>
    <message>
        <source>breakpoint</source>
        <translation>Haltepunkt</translation>
    </message>
    <message>
        <source>same</source>
        <translation>gleich</translation>
    </message>
    <message>
        <source>differs at character %1</source>
        <translation>weicht bei Zeichen %1 ab</translation>
    </message>
    <message>
        <source> · automatic breakpoint</source>
        <translation> · automatischer Haltepunkt</translation>
    </message>
</context>
<context>
    <name>Callscope::CallJob</name>
    <message>
        <source>revision of call %1 on %2</source>
        <translation>Revision von Aufruf %1 auf %2</translation>
    </message>
    <message>
        <source>call %1 again on %2</source>
        <translation>Aufruf %1 erneut auf %2</translation>
    </message>
    <message>
        <source>session %1 turn on %2</source>
        <translation>Runde in Sitzung %1 auf %2</translation>
    </message>
    <message>
        <source>summary of session %1 on %2</source>
        <translation>Zusammenfassung von Sitzung %1 auf %2</translation>
    </message>
    <message>
        <source>call</source>
        <translation>Aufruf</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>compaction needs the history database</source>
        <translation>das Verdichten braucht die Verlaufsdatenbank</translation>
    </message>
    <message numerus="yes">
        <source>nothing to fold: the session holds %n message(s) the model sees</source>
        <translation>
            <numerusform>nichts zusammenzufassen: die Sitzung enthält %n Nachricht, die das Modell sieht</numerusform>
            <numerusform>nichts zusammenzufassen: die Sitzung enthält %n Nachrichten, die das Modell sieht</numerusform>
        </translation>
    </message>
    <message>
        <source>sessions need the history database</source>
        <translation>Sitzungen brauchen die Verlaufsdatenbank</translation>
    </message>
    <message>
        <source>the summary call did not complete (%1): %2</source>
        <translation>der Zusammenfassungsaufruf wurde nicht abgeschlossen (%1): %2</translation>
    </message>
    <message>
        <source>folded messages %1 to %2 into a summary</source>
        <translation>Nachrichten %1 bis %2 zu einer Zusammenfassung verdichtet</translation>
    </message>
    <message>
        <source>cancelled before it started</source>
        <translation>vor dem Start abgebrochen</translation>
    </message>
    <message>
        <source>the session cannot be read</source>
        <translation>die Sitzung kann nicht gelesen werden</translation>
    </message>
</context>
<context>
    <name>Callscope::CallService</name>
    <message>
        <source>revising a call needs the history database</source>
        <translation>das Überarbeiten eines Aufrufs braucht die Verlaufsdatenbank</translation>
    </message>
    <message>
        <source>cannot revise call %1: %2</source>
        <translation>Aufruf %1 kann nicht überarbeitet werden: %2</translation>
    </message>
    <message>
        <source>call %1 has no usable spec stored: %2</source>
        <translation>für Aufruf %1 ist keine verwendbare Spezifikation gespeichert: %2</translation>
    </message>
    <message>
        <source>running a call again needs the history database</source>
        <translation>das erneute Ausführen eines Aufrufs braucht die Verlaufsdatenbank</translation>
    </message>
    <message>
        <source>call %1 ran on the replay engine: its recording would answer the same whatever the correction says, so nothing was sent. Revise it on a live engine (an engine profile: revise %1 --engine PROFILE).</source>
        <translation>Aufruf %1 lief auf der Replay-Engine: Ihre Aufzeichnung antwortet gleich, was auch immer die Korrektur sagt, daher wurde nichts gesendet. Überarbeiten Sie ihn auf einer echten Engine (ein Engine-Profil: revise %1 --engine PROFIL).</translation>
    </message>
    <message>
        <source>the store writer cannot open the history database</source>
        <translation>der Speicher-Schreiber kann die Verlaufsdatenbank nicht öffnen</translation>
    </message>
    <message>
        <source>there is no history database</source>
        <translation>es gibt keine Verlaufsdatenbank</translation>
    </message>
</context>
<context>
    <name>Callscope::CallTab</name>
    <message>
        <source>the output failed validation; a correction was sent</source>
        <translation>die Ausgabe hat die Prüfung nicht bestanden; eine Korrektur wurde gesendet</translation>
    </message>
    <message>
        <source>the output was not valid JSON; a correction was sent</source>
        <translation>die Ausgabe war kein gültiges JSON; eine Korrektur wurde gesendet</translation>
    </message>
    <message>
        <source>the reply was cut off at the token limit; the model was asked again</source>
        <translation>die Antwort wurde an der Token-Grenze abgeschnitten; das Modell wurde erneut gefragt</translation>
    </message>
    <message>
        <source>the reply was empty; the model was asked again</source>
        <translation>die Antwort war leer; das Modell wurde erneut gefragt</translation>
    </message>
    <message>
        <source>the reply was plain text, not the output; the model was asked again</source>
        <translation>die Antwort war reiner Text statt der Ausgabe; das Modell wurde erneut gefragt</translation>
    </message>
    <message>
        <source>a correction was sent</source>
        <translation>eine Korrektur wurde gesendet</translation>
    </message>
    <message>
        <source>Replay…</source>
        <translation>Erneut abspielen…</translation>
    </message>
    <message>
        <source>Revise…</source>
        <translation>Überarbeiten…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <source>Compare with Parent</source>
        <translation>Mit Elternaufruf vergleichen</translation>
    </message>
    <message>
        <source>Compare Selected</source>
        <translation>Auswahl vergleichen</translation>
    </message>
    <message>
        <source>Run this call&apos;s input again on another engine; the replay is stored under it</source>
        <translation>Die Eingabe dieses Aufrufs auf einer anderen Engine erneut ausführen; die Wiederholung wird darunter gespeichert</translation>
    </message>
    <message>
        <source>Run this call again with a correction; the revision is stored under it</source>
        <translation>Diesen Aufruf mit einer Korrektur erneut ausführen; die Überarbeitung wird darunter gespeichert</translation>
    </message>
    <message>
        <source>Write this call to a JSON file</source>
        <translation>Diesen Aufruf in eine JSON-Datei schreiben</translation>
    </message>
    <message>
        <source>Show what differs from the call this one revises or replays</source>
        <translation>Zeigen, was sich vom Aufruf unterscheidet, den dieser überarbeitet oder wiederholt</translation>
    </message>
    <message>
        <source>Show what differs between the two calls picked in the revision tree</source>
        <translation>Zeigen, was sich zwischen den zwei im Revisionsbaum gewählten Aufrufen unterscheidet</translation>
    </message>
    <message>
        <source>&amp;Transcript</source>
        <translation>&amp;Verlauf</translation>
    </message>
    <message>
        <source>R&amp;esult</source>
        <translation>&amp;Ergebnis</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>Runde</translation>
    </message>
    <message>
        <source>Turn:</source>
        <translation>Runde:</translation>
    </message>
    <message>
        <source>Re&amp;quest / Response</source>
        <translation>An&amp;frage / Antwort</translation>
    </message>
    <message>
        <source>Context &amp;Budget</source>
        <translation>Kontext&amp;budget</translation>
    </message>
    <message>
        <source>Revisions and replays of this call</source>
        <translation>Überarbeitungen und Wiederholungen dieses Aufrufs</translation>
    </message>
    <message>
        <source>Re&amp;visions</source>
        <translation>Re&amp;visionen</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>The history is not available.</source>
        <translation>Der Verlauf ist nicht verfügbar.</translation>
    </message>
    <message>
        <source>Call %1 could not be read: %2</source>
        <translation>Aufruf %1 ließ sich nicht lesen: %2</translation>
    </message>
    <message>
        <source>Call %1</source>
        <translation>Aufruf %1</translation>
    </message>
    <message>
        <source>Call %1 · %2</source>
        <translation>Aufruf %1 · %2</translation>
    </message>
    <message>
        <source>output: %1</source>
        <translation>Ausgabe: %1</translation>
    </message>
    <message>
        <source>%1 tokens in, %2 out</source>
        <translation>%1 Token ein, %2 aus</translation>
    </message>
    <message>
        <source>about $%1</source>
        <translation>etwa $%1</translation>
    </message>
    <message>
        <source>no price for %1</source>
        <translation>kein Preis für %1</translation>
    </message>
    <message>
        <source>Error (%1): %2</source>
        <translation>Fehler (%1): %2</translation>
    </message>
    <message>
        <source>Replayed from a recording: nothing was sent to a model.</source>
        <translation>Aus einer Aufzeichnung abgespielt: nichts wurde an ein Modell gesendet.</translation>
    </message>
    <message>
        <source>A replay of call %1.</source>
        <translation>Eine Wiederholung von Aufruf %1.</translation>
    </message>
    <message>
        <source>A revision of call %1.</source>
        <translation>Eine Überarbeitung von Aufruf %1.</translation>
    </message>
    <message numerus="yes">
        <source>%n tool argument(s) edited by you at a pause.</source>
        <translation>
            <numerusform>%n Werkzeugargument von Ihnen bei einer Pause bearbeitet.</numerusform>
            <numerusform>%n Werkzeugargumente von Ihnen bei einer Pause bearbeitet.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool result(s) edited by you at a pause.</source>
        <translation>
            <numerusform>%n Werkzeugergebnis von Ihnen bei einer Pause bearbeitet.</numerusform>
            <numerusform>%n Werkzeugergebnisse von Ihnen bei einer Pause bearbeitet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Turn %1: %2</source>
        <translation>Runde %1: %2</translation>
    </message>
    <message>
        <source>The output passed validation.</source>
        <translation>Die Ausgabe hat die Prüfung bestanden.</translation>
    </message>
    <message numerus="yes">
        <source>The output passed validation after %n correction(s).</source>
        <translation>
            <numerusform>Die Ausgabe hat die Prüfung nach %n Korrektur bestanden.</numerusform>
            <numerusform>Die Ausgabe hat die Prüfung nach %n Korrekturen bestanden.</numerusform>
        </translation>
    </message>
    <message>
        <source>No validated output: %1.</source>
        <translation>Keine geprüfte Ausgabe: %1.</translation>
    </message>
    <message>
        <source>No validation errors.</source>
        <translation>Keine Prüffehler.</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>This call made no model request.</source>
        <translation>Dieser Aufruf hat keine Anfrage an ein Modell gestellt.</translation>
    </message>
    <message numerus="yes">
        <source>%n tool call(s)</source>
        <translation>
            <numerusform>%n Werkzeugaufruf</numerusform>
            <numerusform>%n Werkzeugaufrufe</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 (failed)</source>
        <translation>%1 von %2 (fehlgeschlagen)</translation>
    </message>
    <message>
        <source>Replayed: nothing was sent to a model. The request is what the replay engine was asked, the response the recorded reply it served.</source>
        <translation>Abgespielt: nichts wurde an ein Modell gesendet. Die Anfrage ist das, was die Replay-Engine gefragt wurde, die Antwort die aufgezeichnete Antwort, die sie lieferte.</translation>
    </message>
    <message>
        <source>The request body as it was sent (headers, and with them any key, are never kept; attachments appear as a placeholder) and the response body as it was received.</source>
        <translation>Der Anfrageinhalt, wie er gesendet wurde (Kopfzeilen und damit jeder Schlüssel werden nie behalten; Anhänge erscheinen als Platzhalter), und der Antwortinhalt, wie er empfangen wurde.</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>The request is the conversation that turn&apos;s request carried (the Context budget tab shows what of it was cut to fit), the response is the reply as it was decoded.</source>
        <translation>Die Anfrage ist das Gespräch, das die Anfrage dieser Runde trug (der Reiter Kontextbudget zeigt, was davon gekürzt wurde), die Antwort ist die Antwort, wie sie dekodiert wurde.</translation>
    </message>
    <message>
        <source>This call was stored before Callscope kept raw requests (or was imported, which leaves them out).</source>
        <translation>Dieser Aufruf wurde gespeichert, bevor Callscope rohe Anfragen behielt (oder er wurde importiert, was sie weglässt).</translation>
    </message>
    <message>
        <source>No raw exchange was kept for this turn.</source>
        <translation>Für diese Runde wurde kein roher Austausch behalten.</translation>
    </message>
    <message>
        <source>no reply: the request ended in an error</source>
        <translation>keine Antwort: die Anfrage endete mit einem Fehler</translation>
    </message>
    <message>
        <source>Cac&amp;he</source>
        <translation>Cac&amp;he</translation>
    </message>
    <message>
        <source>cache: %1 read, %2 written</source>
        <translation>Cache: %1 gelesen, %2 geschrieben</translation>
    </message>
    <message>
        <source>about $%1 ($%2 without the cache)</source>
        <translation>etwa $%1 ($%2 ohne den Cache)</translation>
    </message>
    <message>
        <source>Reading call %1…</source>
        <translation>Aufruf %1 wird gelesen…</translation>
    </message>
    <message>
        <source>Open Trace</source>
        <translation>Trace öffnen</translation>
    </message>
    <message>
        <source>Open this call&apos;s trace in the viewer named in Settings &gt; Telemetry</source>
        <translation>Den Trace dieses Aufrufs im Viewer aus Einstellungen &gt; Telemetrie öffnen</translation>
    </message>
    <message>
        <source>Open this call&apos;s trace in the viewer: %1</source>
        <translation>Den Trace dieses Aufrufs im Viewer öffnen: %1</translation>
    </message>
</context>
<context>
    <name>Callscope::CallView</name>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>Tool results</source>
        <translation>Werkzeugergebnisse</translation>
    </message>
    <message>
        <source>(accepted output)</source>
        <translation>(angenommene Ausgabe)</translation>
    </message>
    <message>
        <source>Refusal: %1</source>
        <translation>Ablehnung: %1</translation>
    </message>
    <message>
        <source>[attachment %1, %2, %3 bytes]</source>
        <translation>[Anhang %1, %2, %3 Bytes]</translation>
    </message>
    <message>
        <source>… (%1 characters in all)</source>
        <translation>… (insgesamt %1 Zeichen)</translation>
    </message>
    <message>
        <source> (error)</source>
        <translation> (Fehler)</translation>
    </message>
    <message>
        <source>Transcript</source>
        <translation>Transkript</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Raw JSON</source>
        <translation>Rohes JSON</translation>
    </message>
    <message>
        <source>No call selected.</source>
        <translation>Kein Aufruf ausgewählt.</translation>
    </message>
    <message>
        <source>Call %1 · %2 · %3 · %4 %5</source>
        <translation>Aufruf %1 · %2 · %3 · %4 %5</translation>
    </message>
    <message>
        <source>parent %1</source>
        <translation>übergeordnet %1</translation>
    </message>
    <message>
        <source>Error (%1): %2</source>
        <translation>Fehler (%1): %2</translation>
    </message>
    <message>
        <source>(accepted output, %1 mode)</source>
        <translation>(angenommene Ausgabe, Modus %1)</translation>
    </message>
    <message>
        <source>output: %1</source>
        <translation>Ausgabe: %1</translation>
    </message>
    <message>
        <source>Arguments edited by you; the model asked for</source>
        <translation>Argumente von Ihnen bearbeitet; das Modell wollte</translation>
    </message>
    <message>
        <source>Result edited by you; the tool returned (error):</source>
        <translation>Ergebnis von Ihnen bearbeitet; das Werkzeug lieferte (Fehler):</translation>
    </message>
    <message>
        <source>Result edited by you; the tool returned:</source>
        <translation>Ergebnis von Ihnen bearbeitet; das Werkzeug lieferte:</translation>
    </message>
    <message>
        <source>by %1 on %2</source>
        <translation>von %1 auf %2</translation>
    </message>
</context>
<context>
    <name>Callscope::Cli</name>
    <message>
        <source>Run the programs the file starts and read the variables it names (see docs/trust.md).</source>
        <translation>Die Programme ausführen, die die Datei startet, und die Variablen lesen, die sie nennt (siehe docs/trust.md).</translation>
    </message>
    <message>
        <source>Allow this environment variable as a key.</source>
        <translation>Diese Umgebungsvariable als Schlüssel erlauben.</translation>
    </message>
    <message>
        <source>Nothing was run or sent. If you trust this file, run again with --trust (or set CALLSCOPE_TRUST=1 on a machine that runs only its own files); a key variable can be allowed alone with --allow-key-env NAME.</source>
        <translation>Es wurde nichts ausgeführt oder gesendet. Wenn Sie dieser Datei vertrauen, führen Sie den Befehl mit --trust erneut aus (oder setzen Sie CALLSCOPE_TRUST=1 auf einem Rechner, der nur seine eigenen Dateien ausführt); eine Schlüsselvariable allein lässt sich mit --allow-key-env NAME erlauben.</translation>
    </message>
</context>
<context>
    <name>Callscope::CommandJob</name>
    <message>
        <source>Tool &quot;%1&quot; timed out after %2 ms; the process was stopped.</source>
        <translation>Tool &quot;%1&quot; timed out after %2 ms; the process was stopped.</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; was not run: its arguments are not a JSON object (%2).</source>
        <translation>Tool &quot;%1&quot; was not run: its arguments are not a JSON object (%2).</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; has an empty command.</source>
        <translation>Tool &quot;%1&quot; has an empty command.</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; could not start: its working directory &quot;%2&quot; does not exist.</source>
        <translation>Tool &quot;%1&quot; could not start: its working directory &quot;%2&quot; does not exist.</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; could not start: program &quot;%2&quot; not found or not executable.</source>
        <translation>Tool &quot;%1&quot; could not start: program &quot;%2&quot; not found or not executable.</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; wrote more than %2 bytes to %3: the output was cut at %2 bytes, the process was stopped and the output discarded. It began with:
%4</source>
        <translation>Tool &quot;%1&quot; wrote more than %2 bytes to %3: the output was cut at %2 bytes, the process was stopped and the output discarded. It began with:
%4</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>(empty)</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; crashed or was killed by a signal.</source>
        <translation>Tool &quot;%1&quot; crashed or was killed by a signal.</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; failed with exit code %2.</source>
        <translation>Tool &quot;%1&quot; failed with exit code %2.</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; wrote to stderr (exit code 0), which counts as a failure.</source>
        <translation>Tool &quot;%1&quot; wrote to stderr (exit code 0), which counts as a failure.</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; could not start program &quot;%2&quot;: %3</source>
        <translation>Tool &quot;%1&quot; could not start program &quot;%2&quot;: %3</translation>
    </message>
</context>
<context>
    <name>Callscope::CommandToolkit</name>
    <message>
        <source>[note: the output was not valid UTF-8; invalid bytes were replaced with U+FFFD]</source>
        <translation>[note: the output was not valid UTF-8; invalid bytes were replaced with U+FFFD]</translation>
    </message>
</context>
<context>
    <name>Callscope::CredentialStore</name>
    <message>
        <source>or give the key for this run only (an environment variable named by the spec&apos;s api_key_env, or a key typed in for this session).</source>
        <translation>oder geben Sie den Schlüssel nur für diesen Lauf an (in einer Umgebungsvariablen, die api_key_env der Spezifikation nennt, oder für diese Sitzung eingegeben).</translation>
    </message>
    <message>
        <source>No keychain service is running (Secret Service over D-Bus: %1). Start gnome-keyring or KWallet in your desktop session, </source>
        <translation>Es läuft kein Schlüsselbund-Dienst (Secret Service über D-Bus: %1). Starten Sie gnome-keyring oder KWallet in Ihrer Desktop-Sitzung, </translation>
    </message>
    <message>
        <source>The keychain is locked. Unlock your keyring (for example by logging in again or with Seahorse), </source>
        <translation>Der Schlüsselbund ist gesperrt. Entsperren Sie ihn (zum Beispiel durch erneutes Anmelden oder mit Seahorse), </translation>
    </message>
    <message>
        <source>The keychain refused access (%1). Allow Callscope to use your keyring, </source>
        <translation>Der Schlüsselbund hat den Zugriff verweigert (%1). Erlauben Sie Callscope, Ihren Schlüsselbund zu benutzen, </translation>
    </message>
    <message>
        <source>The keychain reported an error: %1.</source>
        <translation>Der Schlüsselbund meldete einen Fehler: %1.</translation>
    </message>
</context>
<context>
    <name>Callscope::Dialogs</name>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>&amp;Verwerfen</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;Ja</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;Nein</translation>
    </message>
</context>
<context>
    <name>Callscope::DiffModel</name>
    <message>
        <source>Changed: %1</source>
        <translation>Geändert: %1</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Was</translation>
    </message>
    <message>
        <source>Call %1</source>
        <translation>Aufruf %1</translation>
    </message>
    <message>
        <source>Left</source>
        <translation>Links</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>Rechts</translation>
    </message>
</context>
<context>
    <name>Callscope::DiffView</name>
    <message>
        <source>Only differences</source>
        <translation>Nur Unterschiede</translation>
    </message>
    <message>
        <source>call id</source>
        <translation>Aufruf-ID</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <source>Left:</source>
        <translation>Links:</translation>
    </message>
    <message>
        <source>Right:</source>
        <translation>Rechts:</translation>
    </message>
    <message>
        <source>Call %1 has no parent; pick the call to compare it with.</source>
        <translation>Aufruf %1 hat keinen übergeordneten Aufruf; wählen Sie den Aufruf, mit dem verglichen werden soll.</translation>
    </message>
    <message>
        <source>Cannot compare: %1</source>
        <translation>Vergleich nicht möglich: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n difference(s)</source>
        <translation>
            <numerusform>%n Unterschied</numerusform>
            <numerusform>%n Unterschiede</numerusform>
        </translation>
    </message>
    <message>
        <source>pick two calls</source>
        <translation>zwei Aufrufe auswählen</translation>
    </message>
</context>
<context>
    <name>Callscope::DisplayNames</name>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Stopped at the turn limit</source>
        <translation>Am Zuglimit angehalten</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>key or permission problem</source>
        <translation>Problem mit Schlüssel oder Berechtigung</translation>
    </message>
    <message>
        <source>network problem</source>
        <translation>Netzwerkproblem</translation>
    </message>
    <message>
        <source>the model&apos;s reply was unusable</source>
        <translation>die Antwort des Modells war unbrauchbar</translation>
    </message>
    <message>
        <source>the model refused</source>
        <translation>das Modell hat abgelehnt</translation>
    </message>
    <message>
        <source>the call could not run</source>
        <translation>der Aufruf konnte nicht laufen</translation>
    </message>
    <message>
        <source>no breakpoint</source>
        <translation>kein Haltepunkt</translation>
    </message>
    <message>
        <source>before the request</source>
        <translation>vor der Anfrage</translation>
    </message>
    <message>
        <source>after the reply</source>
        <translation>nach der Antwort</translation>
    </message>
    <message>
        <source>before a tool runs</source>
        <translation>bevor ein Werkzeug läuft</translation>
    </message>
    <message>
        <source>after a tool&apos;s result</source>
        <translation>nach dem Ergebnis eines Werkzeugs</translation>
    </message>
    <message>
        <source>on a validation failure</source>
        <translation>bei einem Validierungsfehler</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>startet</translation>
    </message>
    <message>
        <source>starting the tools</source>
        <translation>startet die Werkzeuge</translation>
    </message>
    <message>
        <source>running the pre-seeded calls</source>
        <translation>führt die vorab gesetzten Aufrufe aus</translation>
    </message>
    <message>
        <source>preparing the request</source>
        <translation>bereitet die Anfrage vor</translation>
    </message>
    <message>
        <source>waiting for the model</source>
        <translation>wartet auf das Modell</translation>
    </message>
    <message>
        <source>checking the output</source>
        <translation>prüft die Ausgabe</translation>
    </message>
    <message>
        <source>waiting for your approval</source>
        <translation>wartet auf Ihre Freigabe</translation>
    </message>
    <message>
        <source>waiting for your tool result</source>
        <translation>wartet auf Ihr Werkzeugergebnis</translation>
    </message>
    <message>
        <source>running tools</source>
        <translation>führt Werkzeuge aus</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Schema keyword &quot;%1&quot;</source>
        <translation>Schema-Schlüsselwort „%1“</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <comment>a file name and the folder that tells it apart</comment>
        <translation>%1 — %2</translation>
    </message>
</context>
<context>
    <name>Callscope::DocumentationDialog</name>
    <message>
        <source>Callscope Documentation</source>
        <translation>Callscope-Dokumentation</translation>
    </message>
    <message>
        <source>Documentation pages</source>
        <translation>Dokumentationsseiten</translation>
    </message>
    <message>
        <source>Documentation page</source>
        <translation>Dokumentationsseite</translation>
    </message>
    <message>
        <source>The documents are in %1.</source>
        <translation>Die Dokumente liegen in %1.</translation>
    </message>
    <message>
        <source>The documentation was not found. It is installed with the package in /usr/share/callscope/docs, and is in the docs folder of the source tree.</source>
        <translation>Die Dokumentation wurde nicht gefunden. Sie wird mit dem Paket in /usr/share/callscope/docs installiert und liegt im Ordner docs des Quellbaums.</translation>
    </message>
</context>
<context>
    <name>Callscope::ElicitationDialog</name>
    <message>
        <source>MCP server &quot;%1&quot; asks</source>
        <translation>MCP-Server „%1“ fragt</translation>
    </message>
    <message>
        <source>&amp;Send</source>
        <translation>&amp;Senden</translation>
    </message>
    <message>
        <source>&amp;Decline</source>
        <translation>&amp;Ablehnen</translation>
    </message>
    <message>
        <source>Fill in &quot;%1&quot;; it is required.</source>
        <translation>Füllen Sie „%1“ aus; das Feld ist erforderlich.</translation>
    </message>
</context>
<context>
    <name>Callscope::EngineChoiceDialog</name>
    <message>
        <source>Replay on another engine</source>
        <translation>Auf einer anderen Engine wiedergeben</translation>
    </message>
    <message>
        <source>(no profile: type and model below)</source>
        <translation>(kein Profil: Typ und Modell unten)</translation>
    </message>
    <message>
        <source>the provider&apos;s public endpoint</source>
        <translation>der öffentliche Endpunkt des Anbieters</translation>
    </message>
    <message>
        <source>e.g. OPENAI_API_KEY</source>
        <translation>z. B. OPENAI_API_KEY</translation>
    </message>
    <message>
        <source>Profile:</source>
        <translation>Profil:</translation>
    </message>
    <message>
        <source>Engine type:</source>
        <translation>Engine-Typ:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modell:</translation>
    </message>
    <message>
        <source>Base URL:</source>
        <translation>Basis-URL:</translation>
    </message>
    <message>
        <source>Key variable:</source>
        <translation>Schlüsselvariable:</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Wiedergeben</translation>
    </message>
    <message>
        <source>Enter the model to replay on.</source>
        <translation>Geben Sie das Modell für die Wiedergabe ein.</translation>
    </message>
    <message>
        <source>The base URL must start with http:// or https:// and name a host.</source>
        <translation>Die Basis-URL muss mit http:// oder https:// beginnen und einen Host nennen.</translation>
    </message>
</context>
<context>
    <name>Callscope::EngineCodec</name>
    <message>
        <source>The model refused to answer.</source>
        <translation>Das Modell hat die Antwort verweigert.</translation>
    </message>
    <message>
        <source>The reply is not a JSON object: %1</source>
        <translation>Die Antwort ist kein JSON-Objekt: %1</translation>
    </message>
    <message>
        <source>The arguments are not valid JSON: %1</source>
        <translation>The arguments are not valid JSON: %1</translation>
    </message>
    <message>
        <source>The arguments are not a JSON object.</source>
        <translation>The arguments are not a JSON object.</translation>
    </message>
    <message>
        <source>[attachment %1 (%2, %3 bytes) was not kept]</source>
        <translation>[attachment %1 (%2, %3 bytes) was not kept]</translation>
    </message>
    <message>
        <source>Malformed JSON in stream event &quot;%1&quot;: %2 (data: %3)</source>
        <translation>Fehlerhaftes JSON im Stream-Ereignis „%1“: %2 (Daten: %3)</translation>
    </message>
    <message>
        <source>The response was blocked (%1).</source>
        <translation>Die Antwort wurde blockiert (%1).</translation>
    </message>
    <message>
        <source>The reply is not JSON: %1</source>
        <translation>Die Antwort ist kein JSON: %1</translation>
    </message>
    <message>
        <source>The reply has no choices.</source>
        <translation>Die Antwort enthält keine Auswahl (choices).</translation>
    </message>
    <message>
        <source>Images returned by the tools:</source>
        <translation>Images returned by the tools:</translation>
    </message>
</context>
<context>
    <name>Callscope::EngineProbe</name>
    <message>
        <source>no network access</source>
        <translation>kein Netzwerkzugriff</translation>
    </message>
    <message>
        <source>an engine of type %1 cannot be tested</source>
        <translation>eine Engine vom Typ %1 kann nicht getestet werden</translation>
    </message>
    <message>
        <source>The engine profile %1 names no model: set its model first.</source>
        <translation>Das Engine-Profil %1 nennt kein Modell: Setzen Sie zuerst sein Modell.</translation>
    </message>
    <message>
        <source>The engine profile %1 has no base URL: an OpenAI-compatible engine needs the address of its server.</source>
        <translation>Das Engine-Profil %1 hat keine Basis-URL: Eine OpenAI-kompatible Engine braucht die Adresse ihres Servers.</translation>
    </message>
    <message>
        <source>The base URL &quot;%1&quot; of the engine profile %2 is not a web address: it must start with https:// (or http://) and name a host.</source>
        <translation>Die Basis-URL „%1“ des Engine-Profils %2 ist keine Webadresse: Sie muss mit https:// (oder http://) beginnen und einen Host nennen.</translation>
    </message>
    <message>
        <source>No key found for the engine profile %1 (%2 needs one): store a key with the profile, or give one in an environment variable (engines test %1 --key-env VAR).</source>
        <translation>Kein Schlüssel für das Engine-Profil %1 gefunden (%2 braucht einen): Speichern Sie einen Schlüssel mit dem Profil oder geben Sie einen in einer Umgebungsvariablen an (engines test %1 --key-env VAR).</translation>
    </message>
</context>
<context>
    <name>Callscope::EngineProfile</name>
    <message>
        <source>the engine profile name is empty</source>
        <translation>der Name des Engine-Profils ist leer</translation>
    </message>
    <message>
        <source>invalid engine profile name &apos;%1&apos;: use 1 to 64 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit</source>
        <translation>ungültiger Name „%1“ für ein Engine-Profil: 1 bis 64 Buchstaben, Ziffern, „.“, „_“ oder „-“, beginnend mit einem Buchstaben oder einer Ziffer</translation>
    </message>
</context>
<context>
    <name>Callscope::EngineSchema</name>
    <message>
        <source>&quot;$schema&quot; is dropped: Gemini does not take it</source>
        <translation>&quot;$schema&quot; wird entfernt: Gemini nimmt es nicht an</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not enforced by this provider; it is moved into the description as a hint</source>
        <translation>&quot;%1&quot; wird von diesem Anbieter nicht erzwungen; es wird als Hinweis in die Beschreibung verschoben</translation>
    </message>
    <message>
        <source>&quot;$ref&quot; with sibling keywords is inlined: strict mode wants a bare $ref</source>
        <translation>&quot;$ref&quot; mit Nachbar-Schlüsselwörtern wird eingesetzt: Der Strict-Modus verlangt ein alleinstehendes $ref</translation>
    </message>
    <message>
        <source>a one-entry &quot;allOf&quot; is merged into its schema: strict mode does not support allOf</source>
        <translation>ein &quot;allOf&quot; mit nur einem Eintrag wird in sein Schema übernommen: Der Strict-Modus unterstützt allOf nicht</translation>
    </message>
    <message>
        <source>&quot;oneOf&quot; is sent as &quot;anyOf&quot;: the provider supports only anyOf (that exactly one branch matches is still checked here)</source>
        <translation>&quot;oneOf&quot; wird als &quot;anyOf&quot; gesendet: Der Anbieter unterstützt nur anyOf (dass genau ein Zweig passt, wird hier trotzdem geprüft)</translation>
    </message>
    <message>
        <source>&quot;const&quot; is sent as a one-value &quot;enum&quot;</source>
        <translation>&quot;const&quot; wird als &quot;enum&quot; mit einem Wert gesendet</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is dropped: Gemini does not take it</source>
        <translation>&quot;%1&quot; wird entfernt: Gemini nimmt es nicht an</translation>
    </message>
    <message>
        <source>&quot;additionalProperties&quot;: false is added: the provider needs it on every object</source>
        <translation>&quot;additionalProperties&quot;: false wird ergänzt: Der Anbieter verlangt es bei jedem Objekt</translation>
    </message>
    <message>
        <source>&quot;additionalProperties&quot; is set to false: the provider allows no other value (extra properties are still checked here)</source>
        <translation>&quot;additionalProperties&quot; wird auf false gesetzt: Der Anbieter erlaubt keinen anderen Wert (zusätzliche Eigenschaften werden hier trotzdem geprüft)</translation>
    </message>
    <message>
        <source>optional property &quot;%1&quot; is made required and nullable: strict mode needs every property in &quot;required&quot; (a null answer counts as absent)</source>
        <translation>die optionale Eigenschaft „%1“ wird erforderlich und darf null sein: Der Strict-Modus verlangt jede Eigenschaft in &quot;required&quot; (eine Antwort null gilt als nicht vorhanden)</translation>
    </message>
    <message>
        <source>objects get &quot;additionalProperties&quot;: false</source>
        <translation>Objekte erhalten &quot;additionalProperties&quot;: false</translation>
    </message>
    <message>
        <source>optional properties become required and nullable</source>
        <translation>optionale Eigenschaften werden erforderlich und dürfen null sein</translation>
    </message>
    <message>
        <source>a &quot;$ref&quot; with sibling keywords is inlined</source>
        <translation>ein &quot;$ref&quot; mit Nachbar-Schlüsselwörtern wird eingesetzt</translation>
    </message>
    <message>
        <source>a one-entry &quot;allOf&quot; is merged into its schema</source>
        <translation>ein &quot;allOf&quot; mit nur einem Eintrag wird in sein Schema übernommen</translation>
    </message>
    <message>
        <source>&quot;oneOf&quot; is sent as &quot;anyOf&quot;</source>
        <translation>&quot;oneOf&quot; wird als &quot;anyOf&quot; gesendet</translation>
    </message>
    <message>
        <source>a keyword the provider does not enforce moves into the description</source>
        <translation>ein Schlüsselwort, das der Anbieter nicht erzwingt, wandert in die Beschreibung</translation>
    </message>
    <message>
        <source>an annotation the provider does not take is dropped</source>
        <translation>eine Annotation, die der Anbieter nicht annimmt, wird entfernt</translation>
    </message>
    <message>
        <source>&quot;items&quot; is sent as one schema every item may match, because the provider does not take the tuple (&quot;prefixItems&quot;); the positions and the count are checked here</source>
        <translation>&quot;items&quot; wird als ein Schema gesendet, zu dem jedes Element passen darf, weil der Anbieter das Tupel (&quot;prefixItems&quot;) nicht annimmt; Positionen und Anzahl werden hier geprüft</translation>
    </message>
    <message>
        <source>a schema of an older draft is sent in 2020-12 words, same meaning</source>
        <translation>ein Schema eines älteren Drafts wird in den Worten von 2020-12 gesendet, mit gleicher Bedeutung</translation>
    </message>
    <message>
        <source>a tuple the provider does not take is sent as one &quot;items&quot; schema</source>
        <translation>ein Tupel, das der Anbieter nicht annimmt, wird als ein &quot;items&quot;-Schema gesendet</translation>
    </message>
</context>
<context>
    <name>Callscope::EnginesPage</name>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Testen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;</source>
        <translation>Buchstaben, Ziffern, „.“, „_“ oder „-“</translation>
    </message>
    <message>
        <source>empty: the provider&apos;s public endpoint</source>
        <translation>leer: der öffentliche Endpunkt des Anbieters</translation>
    </message>
    <message>
        <source>tokens (optional)</source>
        <translation>Tokens (optional)</translation>
    </message>
    <message>
        <source>paste a key to store it in the keychain</source>
        <translation>Schlüssel einfügen, um ihn im Schlüsselbund zu speichern</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>Typ:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modell:</translation>
    </message>
    <message>
        <source>Base URL:</source>
        <translation>Basis-URL:</translation>
    </message>
    <message>
        <source>Context window:</source>
        <translation>Kontextfenster:</translation>
    </message>
    <message>
        <source>API key:</source>
        <translation>API-Schlüssel:</translation>
    </message>
    <message>
        <source>The keychain cannot be used, so keys cannot be stored: %1</source>
        <translation>Der Schlüsselbund ist nicht nutzbar, daher können keine Schlüssel gespeichert werden: %1</translation>
    </message>
    <message>
        <source>No key stored yet.</source>
        <translation>Noch kein Schlüssel gespeichert.</translation>
    </message>
    <message>
        <source>A key is stored. Type a new one to replace it.</source>
        <translation>Ein Schlüssel ist gespeichert. Geben Sie einen neuen ein, um ihn zu ersetzen.</translation>
    </message>
    <message>
        <source>No key stored.</source>
        <translation>Kein Schlüssel gespeichert.</translation>
    </message>
    <message>
        <source>Unknown: the keychain cannot be asked.</source>
        <translation>Unbekannt: Der Schlüsselbund kann nicht abgefragt werden.</translation>
    </message>
    <message>
        <source>Asking the keychain…</source>
        <translation>Schlüsselbund wird abgefragt …</translation>
    </message>
    <message>
        <source>Enter the model name.</source>
        <translation>Geben Sie den Modellnamen ein.</translation>
    </message>
    <message>
        <source>The base URL must start with http:// or https:// and name a host.</source>
        <translation>Die Basis-URL muss mit http:// oder https:// beginnen und einen Host nennen.</translation>
    </message>
    <message>
        <source>Profiles cannot be saved here.</source>
        <translation>Profile können hier nicht gespeichert werden.</translation>
    </message>
    <message>
        <source>An engine named %1 already exists.</source>
        <translation>Eine Engine namens %1 existiert bereits.</translation>
    </message>
    <message>
        <source>No keychain: the key was not stored.</source>
        <translation>Kein Schlüsselbund: Der Schlüssel wurde nicht gespeichert.</translation>
    </message>
    <message>
        <source>Storing the key in the keychain…</source>
        <translation>Schlüssel wird im Schlüsselbund gespeichert …</translation>
    </message>
    <message>
        <source>The key could not be stored, so %1 was not saved: %2</source>
        <translation>Der Schlüssel konnte nicht gespeichert werden, daher wurde %1 nicht gespeichert: %2</translation>
    </message>
    <message>
        <source>The engine could not be renamed: %1</source>
        <translation>Die Engine konnte nicht umbenannt werden: %1</translation>
    </message>
    <message>
        <source>The engine could not be saved: %1</source>
        <translation>Die Engine konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>%1 gespeichert.</translation>
    </message>
    <message>
        <source>Removed %1 and its key.</source>
        <translation>%1 und sein Schlüssel wurden entfernt.</translation>
    </message>
    <message>
        <source>Removed %1, but its key could not be deleted: %2</source>
        <translation>%1 wurde entfernt, aber sein Schlüssel konnte nicht gelöscht werden: %2</translation>
    </message>
    <message>
        <source>Testing %1…</source>
        <translation>%1 wird getestet …</translation>
    </message>
    <message>
        <source>The engine answered “%1” in %2 ms (key from: %3).</source>
        <translation>Die Engine antwortete „%1“ in %2 ms (Schlüssel aus: %3).</translation>
    </message>
    <message>
        <source>The test failed: %1</source>
        <translation>Der Test ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>the default (Calls at once)</source>
        <translation>Standardwert (Gleichzeitige Aufrufe)</translation>
    </message>
    <message>
        <source>How many calls may run on this engine at the same time</source>
        <translation>Wie viele Aufrufe gleichzeitig auf dieser Engine laufen dürfen</translation>
    </message>
    <message>
        <source>ms per attempt (optional; default %1 s)</source>
        <translation>ms je Versuch (optional; Standard %1 s)</translation>
    </message>
    <message>
        <source>ms of silence (optional; default %1 s)</source>
        <translation>ms ohne Daten (optional; Standard %1 s)</translation>
    </message>
    <message>
        <source>Calls at once:</source>
        <translation>Gleichzeitige Aufrufe:</translation>
    </message>
    <message>
        <source>Timeout:</source>
        <translation>Zeitlimit:</translation>
    </message>
    <message>
        <source>Idle timeout:</source>
        <translation>Leerlauf-Zeitlimit:</translation>
    </message>
    <message>
        <source>Not tested, nothing was sent: %1</source>
        <translation>Nicht getestet, es wurde nichts gesendet: %1</translation>
    </message>
    <message>
        <source>the key field, not saved yet</source>
        <translation>das Schlüsselfeld, noch nicht gespeichert</translation>
    </message>
</context>
<context>
    <name>Callscope::ExperimentCharts</name>
    <message>
        <source>Charts: pass rate, cost and latency per variant</source>
        <translation>Diagramme: Bestehensquote, Kosten und Latenz je Variante</translation>
    </message>
    <message>
        <source>Open an experiment to see its charts.</source>
        <translation>Öffnen Sie ein Experiment, um seine Diagramme zu sehen.</translation>
    </message>
    <message>
        <source>Pass rate per variant</source>
        <translation>Bestehensquote je Variante</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>bestanden</translation>
    </message>
    <message>
        <source>flaky</source>
        <translation>wackelig</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>nicht bestanden</translation>
    </message>
    <message>
        <source>Cost (total) and pass rate</source>
        <translation>Kosten (gesamt) und Bestehensquote</translation>
    </message>
    <message>
        <source>No price for the models of these variants, so no cost to compare. Add them to your own price table (the setting prices/file) to see it here.</source>
        <translation>Für die Modelle dieser Varianten gibt es keinen Preis, daher keine Kosten zum Vergleichen. Tragen Sie sie in Ihre eigene Preistabelle ein (die Einstellung prices/file), um die Kosten hier zu sehen.</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>kein Preis</translation>
    </message>
    <message>
        <source>100%</source>
        <translation>100%</translation>
    </message>
    <message>
        <source>0%</source>
        <translation>0%</translation>
    </message>
    <message>
        <source>Latency of each run</source>
        <translation>Latenz jedes Laufs</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>p50 (half the runs are faster)</source>
        <translation>p50 (die Hälfte der Läufe ist schneller)</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
</context>
<context>
    <name>Callscope::ExperimentView</name>
    <message>
        <source>Experiment</source>
        <translation>Experiment</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Öffnen …</translation>
    </message>
    <message>
        <source>Open an experiment file (a spec, a dataset, variants and assertions)</source>
        <translation>Eine Experimentdatei öffnen (eine Spezifikation, ein Datensatz, Varianten und Zusicherungen)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Run every case in every variant, repeated, and check the assertions</source>
        <translation>Jeden Fall in jeder Variante wiederholt ausführen und die Zusicherungen prüfen</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stoppen</translation>
    </message>
    <message>
        <source>Cancel the calls in flight; what finished stays stored and Resume runs the rest</source>
        <translation>Die laufenden Aufrufe abbrechen; was fertig ist, bleibt gespeichert, und Fortsetzen führt den Rest aus</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Run only what the stored experiment has not run yet</source>
        <translation>Nur ausführen, was das gespeicherte Experiment noch nicht ausgeführt hat</translation>
    </message>
    <message>
        <source>Add Variant</source>
        <translation>Variante hinzufügen</translation>
    </message>
    <message>
        <source>From the Spec in the Editor…</source>
        <translation>Aus der Spezifikation im Editor …</translation>
    </message>
    <message>
        <source>From the Current Call…</source>
        <translation>Aus dem aktuellen Aufruf …</translation>
    </message>
    <message>
        <source>Add a variant to the experiment file, made from the spec you are editing or from a stored call</source>
        <translation>Der Experimentdatei eine Variante hinzufügen, erstellt aus der Spezifikation, die Sie bearbeiten, oder aus einem gespeicherten Aufruf</translation>
    </message>
    <message>
        <source>Cancel Batches</source>
        <translation>Batches abbrechen</translation>
    </message>
    <message>
        <source>Cancel the open provider batches at the provider (what they answered so far is kept), then stop. Stop alone leaves them running, and Resume picks them up later.</source>
        <translation>Die offenen Anbieter-Batches beim Anbieter abbrechen (was sie bisher beantwortet haben, bleibt erhalten) und dann stoppen. Stoppen allein lässt sie weiterlaufen, und Fortsetzen holt sie später ab.</translation>
    </message>
    <message>
        <source>This experiment cannot run yet. Fix these places, then press Reload. A place starting with / is in the experiment file (/assert/0 is the first entry of &quot;assert&quot;); file:line:column is in that file.</source>
        <translation>Dieses Experiment kann noch nicht ausgeführt werden. Beheben Sie diese Stellen und drücken Sie dann Neu laden. Eine Stelle, die mit / beginnt, liegt in der Experimentdatei (/assert/0 ist der erste Eintrag von &quot;assert&quot;); Datei:Zeile:Spalte liegt in jener Datei.</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Figures per variant</source>
        <translation>Kennzahlen je Variante</translation>
    </message>
    <message>
        <source>Matrix: cases by variants</source>
        <translation>Matrix: Fälle nach Varianten</translation>
    </message>
    <message>
        <source>All cases</source>
        <translation>Alle Fälle</translation>
    </message>
    <message>
        <source>Not passing</source>
        <translation>Nicht immer bestanden</translation>
    </message>
    <message>
        <source>Flaky</source>
        <translation>Wackelig</translation>
    </message>
    <message>
        <source>Failing</source>
        <translation>Nicht bestanden</translation>
    </message>
    <message>
        <source>Compare Two Cells</source>
        <translation>Zwei Zellen vergleichen</translation>
    </message>
    <message>
        <source>Select two cells of one case (Ctrl+click) to see their calls side by side in the Diff panel</source>
        <translation>Wählen Sie zwei Zellen eines Falls aus (Strg+Klick), um ihre Aufrufe im Bereich Vergleich nebeneinander zu sehen</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Anzeigen:</translation>
    </message>
    <message>
        <source>Click a cell to see its call in History. Ctrl+click a second cell of the same case, then Compare Two Cells to see both calls side by side. Hover a cell for why it failed.</source>
        <translation>Klicken Sie auf eine Zelle, um ihren Aufruf im Verlauf zu sehen. Klicken Sie mit Strg auf eine zweite Zelle desselben Falls und dann auf Zwei Zellen vergleichen, um beide Aufrufe nebeneinander zu sehen. Zeigen Sie auf eine Zelle, um zu erfahren, warum sie nicht bestanden hat.</translation>
    </message>
    <message>
        <source>Matrix</source>
        <translation>Matrix</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Diagramme</translation>
    </message>
    <message>
        <source>Open Experiment</source>
        <translation>Experiment öffnen</translation>
    </message>
    <message>
        <source>An experiment is running; stop it before opening another.</source>
        <translation>Ein Experiment läuft; stoppen Sie es, bevor Sie ein anderes öffnen.</translation>
    </message>
    <message>
        <source>%1 (cannot run)</source>
        <translation>%1 (nicht ausführbar)</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>(the file)</source>
        <translation>(die Datei)</translation>
    </message>
    <message>
        <source>All variants</source>
        <translation>Alle Varianten</translation>
    </message>
    <message>
        <source>The stored results could not be read: %1</source>
        <translation>Die gespeicherten Ergebnisse konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>There is no stored run of this experiment to resume; press Run.</source>
        <translation>Es gibt keinen gespeicherten Lauf dieses Experiments zum Fortsetzen; drücken Sie Ausführen.</translation>
    </message>
    <message>
        <source>Experiment %1 is not in the history database.</source>
        <translation>Experiment %1 ist nicht in der Verlaufsdatenbank.</translation>
    </message>
    <message>
        <source>The file changed since experiment %1 ran, so it cannot be resumed; press Run to start again.</source>
        <translation>Die Datei hat sich geändert, seit Experiment %1 lief, daher kann es nicht fortgesetzt werden; drücken Sie Ausführen, um neu zu beginnen.</translation>
    </message>
    <message>
        <source>The experiment cannot be stored: %1</source>
        <translation>Das Experiment kann nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>The history database is not open: the runs are not stored and cannot be resumed.</source>
        <translation>Die Verlaufsdatenbank ist nicht geöffnet: Die Läufe werden nicht gespeichert und können nicht fortgesetzt werden.</translation>
    </message>
    <message>
        <source>Through the providers&apos; batch APIs: nothing submitted yet</source>
        <translation>Über die Batch-APIs der Anbieter: noch nichts übermittelt</translation>
    </message>
    <message>
        <source>%1 of %2 lines answered</source>
        <translation>%1 von %2 Zeilen beantwortet</translation>
    </message>
    <message>
        <source>waiting %1</source>
        <translation>wartet seit %1</translation>
    </message>
    <message>
        <source>Resume to collect their answers</source>
        <translation>Fortsetzen, um ihre Antworten abzuholen</translation>
    </message>
    <message>
        <source>a submission is unknown: see the notice</source>
        <translation>eine Übermittlung ist ungewiss: siehe Hinweis</translation>
    </message>
    <message>
        <source>No experiment open</source>
        <translation>Kein Experiment geöffnet</translation>
    </message>
    <message>
        <source>1 case</source>
        <translation>1 Fall</translation>
    </message>
    <message>
        <source>%1 cases</source>
        <translation>%1 Fälle</translation>
    </message>
    <message>
        <source>1 variant</source>
        <translation>1 Variante</translation>
    </message>
    <message>
        <source>%1 variants</source>
        <translation>%1 Varianten</translation>
    </message>
    <message>
        <source>1 repeat</source>
        <translation>1 Wiederholung</translation>
    </message>
    <message>
        <source>%1 repeats</source>
        <translation>%1 Wiederholungen</translation>
    </message>
    <message>
        <source>Open an experiment file to compare variants of a spec over a dataset.</source>
        <translation>Öffnen Sie eine Experimentdatei, um Varianten einer Spezifikation über einen Datensatz zu vergleichen.</translation>
    </message>
    <message>
        <source>1 problem in the file; nothing was sent.</source>
        <translation>1 Problem in der Datei; es wurde nichts gesendet.</translation>
    </message>
    <message>
        <source>%1 problems in the file; nothing was sent.</source>
        <translation>%1 Probleme in der Datei; es wurde nichts gesendet.</translation>
    </message>
    <message>
        <source>Stopping: cancelling the calls in flight…</source>
        <translation>Wird gestoppt: Die laufenden Aufrufe werden abgebrochen …</translation>
    </message>
    <message>
        <source>Every case passed in every variant.</source>
        <translation>Jeder Fall hat in jeder Variante bestanden.</translation>
    </message>
    <message>
        <source>%1 of %2 cells did not pass in every repeat (red or amber).</source>
        <translation>%1 von %2 Zellen haben nicht in jeder Wiederholung bestanden (rot oder gelb).</translation>
    </message>
    <message>
        <source>Run Again</source>
        <translation>Erneut ausführen</translation>
    </message>
    <message>
        <source>This cell has no call yet</source>
        <translation>Diese Zelle hat noch keinen Aufruf</translation>
    </message>
    <message>
        <source>Select two cells of the same case (Ctrl+click the second) to compare them.</source>
        <translation>Wählen Sie zwei Zellen desselben Falls aus (die zweite mit Strg+Klick), um sie zu vergleichen.</translation>
    </message>
    <message>
        <source>Both cells need a finished run to compare.</source>
        <translation>Zum Vergleichen brauchen beide Zellen einen beendeten Lauf.</translation>
    </message>
    <message>
        <source>The Diff panel shows case %1: %2 (call %3) on the left, %4 (call %5) on the right.</source>
        <translation>Der Bereich Vergleich zeigt Fall %1: links %2 (Aufruf %3), rechts %4 (Aufruf %5).</translation>
    </message>
    <message>
        <source>Open Call of Repeat %1 (%2)</source>
        <translation>Aufruf von Wiederholung %1 öffnen (%2)</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>bestanden</translation>
    </message>
    <message>
        <source>not passed</source>
        <translation>nicht bestanden</translation>
    </message>
    <message>
        <source>Compare With</source>
        <translation>Vergleichen mit</translation>
    </message>
    <message>
        <source>Open an experiment first.</source>
        <translation>Öffnen Sie zuerst ein Experiment.</translation>
    </message>
    <message>
        <source>Stop the experiment before changing it.</source>
        <translation>Stoppen Sie das Experiment, bevor Sie es ändern.</translation>
    </message>
    <message>
        <source>A variant needs a name.</source>
        <translation>Eine Variante braucht einen Namen.</translation>
    </message>
    <message>
        <source>There is already a variant named &quot;%1&quot;.</source>
        <translation>Es gibt bereits eine Variante namens „%1“.</translation>
    </message>
    <message>
        <source>The file with the new variant does not load; see the problems listed.</source>
        <translation>Die Datei mit der neuen Variante lässt sich nicht laden; siehe die aufgeführten Probleme.</translation>
    </message>
    <message>
        <source>Added the variant &quot;%1&quot; to %2. Press Run to run the experiment with it.</source>
        <translation>Die Variante „%1“ wurde zu %2 hinzugefügt. Drücken Sie Ausführen, um das Experiment damit auszuführen.</translation>
    </message>
    <message>
        <source>The spec in the editor cannot be read; fix it first (see Findings).</source>
        <translation>Die Spezifikation im Editor kann nicht gelesen werden; beheben Sie das zuerst (siehe Befunde).</translation>
    </message>
    <message>
        <source>The spec in the editor is the same as the experiment&apos;s spec; change it first.</source>
        <translation>Die Spezifikation im Editor ist dieselbe wie die des Experiments; ändern Sie sie zuerst.</translation>
    </message>
    <message>
        <source>Added &quot;%1&quot;. A variant can only add or change fields, so it keeps these of the experiment&apos;s spec: %2.</source>
        <translation>„%1“ wurde hinzugefügt. Eine Variante kann Felder nur hinzufügen oder ändern, daher behält sie diese aus der Spezifikation des Experiments: %2.</translation>
    </message>
    <message>
        <source>Pick a call first (in History, or a cell of the matrix).</source>
        <translation>Wählen Sie zuerst einen Aufruf aus (im Verlauf oder eine Zelle der Matrix).</translation>
    </message>
    <message>
        <source>Name of the new variant (it becomes a column of the matrix):</source>
        <translation>Name der neuen Variante (sie wird eine Spalte der Matrix):</translation>
    </message>
    <message>
        <source>New Variant from the Spec</source>
        <translation>Neue Variante aus der Spezifikation</translation>
    </message>
    <message>
        <source>edited spec</source>
        <translation>bearbeitete Spezifikation</translation>
    </message>
    <message>
        <source>New Variant from Call %1</source>
        <translation>Neue Variante aus Aufruf %1</translation>
    </message>
    <message>
        <source>call %1</source>
        <translation>Aufruf %1</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>Provider batches, round %1</source>
        <translation>Anbieter-Batches, Durchgang %1</translation>
    </message>
    <message>
        <source>1 batch at the provider</source>
        <translation>1 Batch beim Anbieter</translation>
    </message>
    <message>
        <source>%1 batches at the provider</source>
        <translation>%1 Batches beim Anbieter</translation>
    </message>
    <message>
        <source>1 batch ended</source>
        <translation>1 Batch beendet</translation>
    </message>
    <message>
        <source>%1 batches ended</source>
        <translation>%1 Batches beendet</translation>
    </message>
    <message>
        <source>1 request for the next round</source>
        <translation>1 Anfrage für den nächsten Durchgang</translation>
    </message>
    <message>
        <source>%1 requests for the next round</source>
        <translation>%1 Anfragen für den nächsten Durchgang</translation>
    </message>
    <message>
        <source>New…</source>
        <translation>Neu …</translation>
    </message>
    <message>
        <source>Make a new experiment file: a spec, cases, variants and assertions in a form</source>
        <translation>Eine neue Experimentdatei anlegen: Spezifikation, Fälle, Varianten und Zusicherungen in einem Formular</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Compare specs across many inputs.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;An experiment file names a spec, a dataset of cases, the variants to compare and the checks each output must pass. Make one with &lt;b&gt;New…&lt;/b&gt;, open one with &lt;b&gt;Open…&lt;/b&gt; (or File › Open Experiment…), or drop the file here; then press &lt;b&gt;Run&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;The matrix shows each case in each variant: green passed every repeat, amber is flaky, red failed. Click a cell to see its call.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Spezifikationen über viele Eingaben vergleichen.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Eine Experimentdatei nennt eine Spezifikation, einen Datensatz von Fällen, die zu vergleichenden Varianten und die Prüfungen, die jede Ausgabe bestehen muss. Legen Sie eine mit &lt;b&gt;Neu …&lt;/b&gt; an, öffnen Sie eine mit &lt;b&gt;Öffnen …&lt;/b&gt; (oder Datei › Experiment öffnen …) oder legen Sie die Datei hier ab; drücken Sie dann &lt;b&gt;Ausführen&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;Die Matrix zeigt jeden Fall in jeder Variante: Grün hat jede Wiederholung bestanden, Gelb ist wackelig, Rot hat nicht bestanden. Klicken Sie auf eine Zelle, um ihren Aufruf zu sehen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>New Experiment…</source>
        <translation>Neues Experiment …</translation>
    </message>
    <message>
        <source>Open Experiment…</source>
        <translation>Experiment öffnen …</translation>
    </message>
    <message>
        <source>Nothing was run: the experiment is not trusted.</source>
        <translation>Nichts wurde ausgeführt: dem Experiment wird nicht vertraut.</translation>
    </message>
    <message>
        <source>The answer could not be remembered: %1</source>
        <translation>Die Antwort konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>Experiment %1 is running in another program (%2); wait for it to end, then resume.</source>
        <translation>Experiment %1 läuft in einem anderen Programm (%2); warten Sie, bis es endet, und setzen Sie es dann fort.</translation>
    </message>
    <message>
        <source>The history cannot store the results (%1): no more calls are started. The replies of the calls in flight are kept beside the database and stored at the next start.</source>
        <translation>Der Verlauf kann die Ergebnisse nicht speichern (%1): es werden keine weiteren Aufrufe gestartet. Die Antworten der laufenden Aufrufe werden neben der Datenbank aufbewahrt und beim nächsten Start gespeichert.</translation>
    </message>
    <message>
        <source>Comparisons of the variants</source>
        <translation>Vergleiche der Varianten</translation>
    </message>
    <message>
        <source>Reading the stored results…</source>
        <translation>Die gespeicherten Ergebnisse werden gelesen …</translation>
    </message>
    <message>
        <source>Reading what experiment %1 has done…</source>
        <translation>Es wird gelesen, was Experiment %1 getan hat …</translation>
    </message>
    <message>
        <source>Storing the new experiment…</source>
        <translation>Das neue Experiment wird gespeichert …</translation>
    </message>
    <message>
        <source>%1 against %2: %3 cases, %4 passed only under %2, %5 only under %1; difference %6 points (95% interval %7 to %8), p = %9; score difference %10</source>
        <translation>%1 gegen %2: %3 Fälle, %4 nur unter %2 bestanden, %5 nur unter %1; Unterschied %6 Punkte (95-%-Intervall %7 bis %8), p = %9; Unterschied der Bewertung %10</translation>
    </message>
    <message>
        <source>%1 (reading the calls it starts from…)</source>
        <translation>%1 (die Aufrufe, von denen es ausgeht, werden gelesen…)</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>Prüfen…</translation>
    </message>
    <message>
        <source>Label the outputs of this run yourself, with the keyboard: pass, fail, a score and a note. The judge&apos;s verdict stays hidden until you have labelled.</source>
        <translation>Die Ausgaben dieses Laufs selbst bewerten, mit der Tastatur: bestanden, durchgefallen, eine Punktzahl und eine Notiz. Das Urteil des Richters bleibt verborgen, bis Sie bewertet haben.</translation>
    </message>
    <message>
        <source>Agreement of the judges with people</source>
        <translation>Übereinstimmung der Richter mit Menschen</translation>
    </message>
    <message>
        <source>%1: judge pass and person pass %2, judge pass and person fail %3, judge fail and person pass %4, judge fail and person fail %5</source>
        <translation>%1: Richter bestanden und Mensch bestanden %2, Richter bestanden und Mensch durchgefallen %3, Richter durchgefallen und Mensch bestanden %4, Richter durchgefallen und Mensch durchgefallen %5</translation>
    </message>
    <message numerus="yes">
        <source>%n label(s) by people; the experiment has no judge to compare them with.</source>
        <translation>
            <numerusform>%n Bewertung von Menschen; das Experiment hat keinen Richter, mit dem sie verglichen werden könnte.</numerusform>
            <numerusform>%n Bewertungen von Menschen; das Experiment hat keinen Richter, mit dem sie verglichen werden könnten.</numerusform>
        </translation>
    </message>
    <message>
        <source>Run the experiment (or open a stored run) before reviewing it.</source>
        <translation>Führen Sie das Experiment aus (oder öffnen Sie einen gespeicherten Lauf), bevor Sie es prüfen.</translation>
    </message>
    <message>
        <source>No run of this experiment has a call to review yet.</source>
        <translation>Noch kein Lauf dieses Experiments hat einen Aufruf zum Prüfen.</translation>
    </message>
    <message>
        <source>Experiment files (*.json);;promptfoo configurations (*.yaml *.yml);;All files (*)</source>
        <translation>Experimentdateien (*.json);;promptfoo-Konfigurationen (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Leave Them Out</source>
        <translation>Weglassen</translation>
    </message>
    <message>
        <source>Open the configuration without the parts listed here. The file is not changed.</source>
        <translation>Die Konfiguration ohne die hier aufgeführten Teile öffnen. Die Datei wird nicht geändert.</translation>
    </message>
    <message numerus="yes">
        <source>%n part(s) of %1 were left out: %2</source>
        <translation>
            <numerusform>%n Teil von %1 wurde weggelassen: %2</numerusform>
            <numerusform>%n Teile von %1 wurden weggelassen: %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is a promptfoo configuration with parts Callscope cannot take. Leave Them Out opens the rest (the file is not changed); a place file:line is in that file, after it the key path.</source>
        <translation>%1 ist eine promptfoo-Konfiguration mit Teilen, die Callscope nicht übernehmen kann. Weglassen öffnet den Rest (die Datei wird nicht geändert); eine Stelle Datei:Zeile liegt in dieser Datei, dahinter steht der Schlüsselpfad.</translation>
    </message>
    <message>
        <source>%1 is a promptfoo configuration, which Callscope does not change, and %2 beside it exists already. Open %2 and add the variant there.</source>
        <translation>%1 ist eine promptfoo-Konfiguration, die Callscope nicht ändert, und %2 daneben gibt es schon. Öffnen Sie %2 und fügen Sie die Variante dort hinzu.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Added the variant &quot;%1&quot; to %2, a Callscope experiment made from %3 (which is unchanged). Press Run to run it.</source>
        <translation>Die Variante „%1“ wurde zu %2 hinzugefügt, einem aus %3 erstellten Callscope-Experiment (%3 bleibt unverändert). Starten Sie es mit Ausführen.</translation>
    </message>
    <message>
        <source>It sends the input of &quot;%1&quot;; change its &quot;input&quot; in the file to send another.</source>
        <translation>Sie sendet die Eingabe von „%1“; ändern Sie ihr „input“ in der Datei, um eine andere zu senden.</translation>
    </message>
    <message numerus="yes">
        <source>Experiment stopped: %1 of %n run(s) done</source>
        <translation>
            <numerusform>Experiment angehalten: %1 von %n Lauf erledigt</numerusform>
            <numerusform>Experiment angehalten: %1 von %n Läufen erledigt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Experiment finished: %n run(s)</source>
        <translation>
            <numerusform>Experiment fertig: %n Lauf</numerusform>
            <numerusform>Experiment fertig: %n Läufe</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 = %n run(s). Press Run to start.</source>
        <translation>
            <numerusform>%1 = %n Lauf. Starten Sie mit Ausführen.</numerusform>
            <numerusform>%1 = %n Läufe. Starten Sie mit Ausführen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Running experiment %1: %2 of %n run(s) done, %3 not passed, %4 in flight (at most %5 at once; Preferences › Limits).</source>
        <translation>
            <numerusform>Experiment %1 läuft: %2 von %n Lauf erledigt, %3 nicht bestanden, %4 laufend (höchstens %5 gleichzeitig; Einstellungen › Gleichzeitige Aufrufe).</numerusform>
            <numerusform>Experiment %1 läuft: %2 von %n Läufen erledigt, %3 nicht bestanden, %4 laufend (höchstens %5 gleichzeitig; Einstellungen › Gleichzeitige Aufrufe).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Experiment %1 (%2) is incomplete: %3 of %n run(s) done. Resume runs the rest.</source>
        <translation>
            <numerusform>Experiment %1 (%2) ist unvollständig: %3 von %n Lauf erledigt. Fortsetzen führt den Rest aus.</numerusform>
            <numerusform>Experiment %1 (%2) ist unvollständig: %3 von %n Läufen erledigt. Fortsetzen führt den Rest aus.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Experiment %1 (%2): all %n run(s) done. %3</source>
        <translation>
            <numerusform>Experiment %1 (%2): %n Lauf erledigt. %3</numerusform>
            <numerusform>Experiment %1 (%2): alle %n Läufe erledigt. %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Kann nicht ausgeführt werden: %1</translation>
    </message>
</context>
<context>
    <name>Callscope::ExperimentsHost</name>
    <message>
        <source>E&amp;xperiment</source>
        <translation>E&amp;xperiment</translation>
    </message>
    <message>
        <source>Open E&amp;xperiment…</source>
        <translation>E&amp;xperiment öffnen …</translation>
    </message>
    <message>
        <source>Open an experiment file: a spec over a dataset, in several variants, with checks</source>
        <translation>Eine Experimentdatei öffnen: eine Spezifikation über einem Datensatz, in mehreren Varianten, mit Prüfungen</translation>
    </message>
    <message>
        <source>&amp;Run Experiment</source>
        <translation>Experiment &amp;ausführen</translation>
    </message>
    <message>
        <source>Run every case of the experiment in every variant</source>
        <translation>Jeden Fall des Experiments in jeder Variante ausführen</translation>
    </message>
    <message>
        <source>&amp;Stop Experiment</source>
        <translation>Experiment &amp;stoppen</translation>
    </message>
    <message>
        <source>Res&amp;ume Experiment</source>
        <translation>Experiment &amp;fortsetzen</translation>
    </message>
    <message>
        <source>Run only what the stored experiment has not run yet</source>
        <translation>Nur ausführen, was das gespeicherte Experiment noch nicht ausgeführt hat</translation>
    </message>
    <message>
        <source>Add Variant from the &amp;Spec…</source>
        <translation>Variante aus der S&amp;pezifikation hinzufügen …</translation>
    </message>
    <message>
        <source>Add the spec in the editor to the experiment as a new variant</source>
        <translation>Die Spezifikation im Editor dem Experiment als neue Variante hinzufügen</translation>
    </message>
    <message>
        <source>Add Variant from the Current &amp;Call…</source>
        <translation>Variante aus dem aktuellen Auf&amp;ruf hinzufügen …</translation>
    </message>
    <message>
        <source>Add the spec the current call ran with to the experiment as a new variant</source>
        <translation>Die Spezifikation, mit der der aktuelle Aufruf lief, dem Experiment als neue Variante hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Compare Two Cells</source>
        <translation>Zwei Zellen &amp;vergleichen</translation>
    </message>
    <message>
        <source>Show the calls of the two selected cells side by side</source>
        <translation>Die Aufrufe der beiden ausgewählten Zellen nebeneinander zeigen</translation>
    </message>
    <message>
        <source>&amp;New Experiment…</source>
        <translation>&amp;Neues Experiment …</translation>
    </message>
    <message>
        <source>Make a new experiment file in a form: the spec, cases, variants and assertions</source>
        <translation>Eine neue Experimentdatei in einem Formular anlegen: Spezifikation, Fälle, Varianten und Zusicherungen</translation>
    </message>
    <message>
        <source>Re&amp;view Outputs…</source>
        <translation>Ausgaben &amp;prüfen…</translation>
    </message>
    <message>
        <source>Label the outputs of the run shown with the keyboard; the judge&apos;s verdict stays hidden until you have labelled</source>
        <translation>Die Ausgaben des gezeigten Laufs mit der Tastatur bewerten; das Urteil des Richters bleibt verborgen, bis Sie bewertet haben</translation>
    </message>
</context>
<context>
    <name>Callscope::HistoryBrowser</name>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>Search input, output and tools…</source>
        <translation>Eingabe, Ausgabe und Werkzeuge durchsuchen …</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Jeder Status</translation>
    </message>
    <message>
        <source>Any engine</source>
        <translation>Jede Engine</translation>
    </message>
    <message>
        <source>Only calls started between these two days (both included)</source>
        <translation>Nur Aufrufe, die zwischen diesen beiden Tagen begonnen wurden (beide eingeschlossen)</translation>
    </message>
    <message>
        <source>to</source>
        <translation>bis</translation>
    </message>
    <message>
        <source>The history could not be read: %1</source>
        <translation>Der Verlauf konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Revision tree</source>
        <translation>Revisionsbaum</translation>
    </message>
    <message>
        <source>Diff with parent</source>
        <translation>Unterschied zum übergeordneten Aufruf</translation>
    </message>
    <message>
        <source>Context budget</source>
        <translation>Kontextbudget</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportieren …</translation>
    </message>
    <message>
        <source>Call %1 could not be read: %2</source>
        <translation>Aufruf %1 konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Loading the history…</source>
        <translation>Der Verlauf wird geladen…</translation>
    </message>
    <message>
        <source>Person</source>
        <translation>Person</translation>
    </message>
    <message>
        <source>Only the calls of this person (the name in their settings)</source>
        <translation>Nur die Aufrufe dieser Person (der Name in ihren Einstellungen)</translation>
    </message>
    <message>
        <source>Open Trace</source>
        <translation>Trace öffnen</translation>
    </message>
</context>
<context>
    <name>Callscope::HistoryDocks</name>
    <message>
        <source>Call history</source>
        <translation>Aufrufverlauf</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>Aufrufe</translation>
    </message>
    <message>
        <source>Revision tree</source>
        <translation>Revisionsbaum</translation>
    </message>
    <message>
        <source>Revisions and replays</source>
        <translation>Revisionen und Wiedergaben</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>Sitzungen</translation>
    </message>
    <message>
        <source>Context budget</source>
        <translation>Kontextbudget</translation>
    </message>
    <message>
        <source>Messages and their sizes</source>
        <translation>Nachrichten und ihre Größen</translation>
    </message>
    <message>
        <source>Call diff</source>
        <translation>Aufrufvergleich</translation>
    </message>
    <message>
        <source>Differences</source>
        <translation>Unterschiede</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Revisions</source>
        <translation>Revisionen</translation>
    </message>
    <message>
        <source>Context Budget</source>
        <translation>Kontextbudget</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <source>Engine profiles and keys</source>
        <translation>Engine-Profile und Schlüssel</translation>
    </message>
    <message>
        <source>Export &amp;Call…</source>
        <translation>&amp;Aufruf exportieren …</translation>
    </message>
    <message>
        <source>Export Revision &amp;Tree…</source>
        <translation>&amp;Revisionsbaum exportieren …</translation>
    </message>
    <message>
        <source>Write the call&apos;s revisions and replays to a JSON file</source>
        <translation>Die Revisionen und Wiedergaben des Aufrufs in eine JSON-Datei schreiben</translation>
    </message>
    <message>
        <source>Export &amp;Session…</source>
        <translation>Sitzung e&amp;xportieren …</translation>
    </message>
    <message>
        <source>Write the current session to a JSON file</source>
        <translation>Die aktuelle Sitzung in eine JSON-Datei schreiben</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>&amp;Importieren …</translation>
    </message>
    <message>
        <source>Add calls or sessions from an exported JSON file</source>
        <translation>Aufrufe oder Sitzungen aus einer exportierten JSON-Datei hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Open Call</source>
        <translation>Aufruf ö&amp;ffnen</translation>
    </message>
    <message>
        <source>Compare with &amp;Parent</source>
        <translation>Mit übergeordnetem Aufruf &amp;vergleichen</translation>
    </message>
    <message>
        <source>&amp;Compare Selected</source>
        <translation>Ausgewählte ver&amp;gleichen</translation>
    </message>
    <message>
        <source>Context &amp;Budget</source>
        <translation>Kontext&amp;budget</translation>
    </message>
    <message>
        <source>&amp;Revise…</source>
        <translation>Überarbei&amp;ten …</translation>
    </message>
    <message>
        <source>Replay on Another &amp;Engine…</source>
        <translation>Auf anderer &amp;Engine wiedergeben …</translation>
    </message>
    <message>
        <source>Replay with Current &amp;Spec</source>
        <translation>Mit aktueller &amp;Spezifikation wiedergeben</translation>
    </message>
    <message>
        <source>Run the call&apos;s input again with the spec open in the editor</source>
        <translation>Die Eingabe des Aufrufs mit der im Editor geöffneten Spezifikation erneut ausführen</translation>
    </message>
    <message>
        <source>Run Spec in Session</source>
        <translation>Spezifikation in der Sitzung ausführen</translation>
    </message>
    <message>
        <source>Run the spec open in the editor on the typed message, inside the current session</source>
        <translation>Die im Editor geöffnete Spezifikation mit der eingegebenen Nachricht in der aktuellen Sitzung ausführen</translation>
    </message>
    <message>
        <source>&amp;New Session</source>
        <translation>&amp;Neue Sitzung</translation>
    </message>
    <message>
        <source>Start an empty session</source>
        <translation>Eine leere Sitzung beginnen</translation>
    </message>
    <message>
        <source>Re&amp;fresh History</source>
        <translation>Verlauf a&amp;ktualisieren</translation>
    </message>
    <message>
        <source>Read the history again</source>
        <translation>Den Verlauf neu einlesen</translation>
    </message>
    <message>
        <source>&amp;History</source>
        <translation>&amp;Verlauf</translation>
    </message>
    <message>
        <source>The history is not available: %1</source>
        <translation>Der Verlauf ist nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>Call %1 could not be read: %2</source>
        <translation>Aufruf %1 konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Diff the current call (picked in History or in the revision tree) against the call it revises or replays</source>
        <translation>Den aktuellen Aufruf (in History oder im Revisionsbaum gewählt) mit dem Aufruf vergleichen, den er überarbeitet oder wiederholt</translation>
    </message>
    <message>
        <source>Write the current call to a JSON file</source>
        <translation>Den aktuellen Aufruf in eine JSON-Datei schreiben</translation>
    </message>
    <message>
        <source>Open the current call in a tab: its transcript, result, requests, context budget and revisions</source>
        <translation>Den aktuellen Aufruf in einem Reiter öffnen: Verlauf, Ergebnis, Anfragen, Kontextbudget und Revisionen</translation>
    </message>
    <message>
        <source>Diff the two calls picked together (in History, or in a revision tree)</source>
        <translation>Die zwei zusammen gewählten Aufrufe vergleichen (im Verlauf oder in einem Revisionsbaum)</translation>
    </message>
    <message>
        <source>Compare with Previous Call</source>
        <translation>Mit vorigem Aufruf vergleichen</translation>
    </message>
    <message>
        <source>Diff the current call against the call that was current before it</source>
        <translation>Den aktuellen Aufruf mit dem Aufruf vergleichen, der davor der aktuelle war</translation>
    </message>
    <message>
        <source>Show what each request of the current call sent, and what was cut</source>
        <translation>Zeigen, was jede Anfrage des aktuellen Aufrufs gesendet hat und was gekürzt wurde</translation>
    </message>
    <message>
        <source>Run the current call again with a correction</source>
        <translation>Den aktuellen Aufruf mit einer Korrektur erneut ausführen</translation>
    </message>
    <message>
        <source>Run the current call&apos;s input on another engine</source>
        <translation>Die Eingabe des aktuellen Aufrufs auf einer anderen Engine ausführen</translation>
    </message>
    <message>
        <source>Call %1 has no parent: it is the first of its tree.</source>
        <translation>Aufruf %1 hat keinen Elternaufruf: er ist der erste seines Baums.</translation>
    </message>
    <message>
        <source>Compare call %1 with call %2</source>
        <translation>Aufruf %1 mit Aufruf %2 vergleichen</translation>
    </message>
    <message>
        <source>Compare %1 ↔ %2</source>
        <translation>Vergleich %1 ↔ %2</translation>
    </message>
    <message>
        <source>Pick two calls to compare them: two rows in History, or two calls in a revision tree (Ctrl+click the second).</source>
        <translation>Zwei Aufrufe wählen, um sie zu vergleichen: zwei Zeilen im Verlauf oder zwei Aufrufe in einem Revisionsbaum (den zweiten mit Strg+Klick).</translation>
    </message>
    <message>
        <source>Compare with Call %1</source>
        <translation>Mit Aufruf %1 vergleichen</translation>
    </message>
    <message>
        <source>The trace of call %1 could not be opened (%2).</source>
        <translation>Der Trace von Aufruf %1 ließ sich nicht öffnen (%2).</translation>
    </message>
    <message>
        <source>no trace link set</source>
        <translation>kein Trace-Link eingestellt</translation>
    </message>
</context>
<context>
    <name>Callscope::HistoryModel</name>
    <message>
        <source>%1 in / %2 out</source>
        <translation>%1 ein / %2 aus</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Aufruf</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Begonnen</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Revisions</source>
        <translation>Revisionen</translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation>Grund: %1</translation>
    </message>
    <message>
        <source>%1, by %2</source>
        <translation>%1, von %2</translation>
    </message>
    <message>
        <source>%1, by %2 on %3</source>
        <translation>%1, von %2 auf %3</translation>
    </message>
    <message>
        <source>by %1</source>
        <translation>von %1</translation>
    </message>
    <message>
        <source>by %1 on %2</source>
        <translation>von %1 auf %2</translation>
    </message>
</context>
<context>
    <name>Callscope::HistoryRescueDialog</name>
    <message numerus="yes">
        <source>Parts of the file cannot be read (SQLite&apos;s check found %n problem(s); the first: %1).</source>
        <translation>
            <numerusform>Teile der Datei sind nicht lesbar (die Prüfung von SQLite fand %n Problem; das erste: %1).</numerusform>
            <numerusform>Teile der Datei sind nicht lesbar (die Prüfung von SQLite fand %n Probleme; das erste: %1).</numerusform>
        </translation>
    </message>
    <message>
        <source>The History Is Damaged</source>
        <translation>Der Verlauf ist beschädigt</translation>
    </message>
    <message>
        <source>Callscope found part of its history unreadable:
%1

Calls may not be stored until it is repaired. Restart Callscope to choose a way back (restore the newest backup, recover what can be read, or start a new history); the damaged file is kept.</source>
        <translation>Callscope hat einen Teil seines Verlaufs als unlesbar erkannt:
%1

Aufrufe werden möglicherweise nicht gespeichert, bis er repariert ist. Starten Sie Callscope neu, um einen Weg zurück zu wählen (die neueste Sicherung wiederherstellen, retten, was lesbar ist, oder einen neuen Verlauf beginnen); die beschädigte Datei bleibt erhalten.</translation>
    </message>
    <message>
        <source>&amp;Restart Now</source>
        <translation>&amp;Jetzt neu starten</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Später</translation>
    </message>
    <message>
        <source>Callscope cannot read all of its history at %1.

%2

Choose a way back. Whichever you choose, the damaged file is kept beside the history under a new name, so nothing is lost for good.</source>
        <translation>Callscope kann nicht den ganzen Verlauf unter %1 lesen.

%2

Wählen Sie einen Weg zurück. Was Sie auch wählen, die beschädigte Datei bleibt unter neuem Namen neben dem Verlauf erhalten, es geht also nichts endgültig verloren.</translation>
    </message>
    <message>
        <source>&amp;Restore Backup</source>
        <translation>Sicherung &amp;wiederherstellen</translation>
    </message>
    <message>
        <source>Re&amp;cover What Can Be Read</source>
        <translation>Lesbares &amp;retten</translation>
    </message>
    <message>
        <source>Start a &amp;New History</source>
        <translation>&amp;Neuen Verlauf beginnen</translation>
    </message>
    <message>
        <source>Not Now</source>
        <translation>Nicht jetzt</translation>
    </message>
    <message>
        <source>There is no backup of this history yet, so it cannot be restored.</source>
        <translation>Von diesem Verlauf gibt es noch keine Sicherung, daher kann er nicht wiederhergestellt werden.</translation>
    </message>
    <message numerus="yes">
        <source>Newest good backup: %1, with %n call(s).</source>
        <translation>
            <numerusform>Neueste gute Sicherung: %1, mit %n Aufruf.</numerusform>
            <numerusform>Neueste gute Sicherung: %1, mit %n Aufrufen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading what can still be read…</source>
        <translation>Lese, was sich noch lesen lässt …</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>Wird ausgeführt …</translation>
    </message>
    <message>
        <source>That did not work: %1</source>
        <translation>Das hat nicht funktioniert: %1</translation>
    </message>
    <message numerus="yes">
        <source>The backup is back in place, with %n call(s).</source>
        <translation>
            <numerusform>Die Sicherung ist wieder an ihrem Platz, mit %n Aufruf.</numerusform>
            <numerusform>Die Sicherung ist wieder an ihrem Platz, mit %n Aufrufen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) could be read into the new history.</source>
        <translation>
            <numerusform>%n Aufruf konnte in den neuen Verlauf gelesen werden.</numerusform>
            <numerusform>%n Aufrufe konnten in den neuen Verlauf gelesen werden.</numerusform>
        </translation>
    </message>
    <message>
        <source>Not readable: %1.</source>
        <translation>Nicht lesbar: %1.</translation>
    </message>
    <message>
        <source>A new, empty history starts now.</source>
        <translation>Ein neuer, leerer Verlauf beginnt jetzt.</translation>
    </message>
    <message>
        <source>The damaged file was kept as %1.</source>
        <translation>Die beschädigte Datei wurde als %1 aufbewahrt.</translation>
    </message>
</context>
<context>
    <name>Callscope::HistorySettingsPage</name>
    <message>
        <source>This computer</source>
        <translation>Dieser Computer</translation>
    </message>
    <message>
        <source>A shared PostgreSQL server</source>
        <translation>Ein gemeinsamer PostgreSQL-Server</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Auswählen…</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Testen</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>The SQLite file the studio and callscope-cli use by default</source>
        <translation>Die SQLite-Datei, die das Studio und callscope-cli standardmäßig verwenden</translation>
    </message>
    <message>
        <source>db.example.com, or a socket folder such as /run/postgresql</source>
        <translation>db.example.com oder ein Socket-Ordner wie /run/postgresql</translation>
    </message>
    <message>
        <source>your role on the server</source>
        <translation>Ihre Rolle auf dem Server</translation>
    </message>
    <message>
        <source>verify-full: encrypted, the server&apos;s certificate and name checked</source>
        <translation>verify-full: verschlüsselt, Zertifikat und Name des Servers geprüft</translation>
    </message>
    <message>
        <source>verify-ca: encrypted, the server&apos;s certificate checked</source>
        <translation>verify-ca: verschlüsselt, Zertifikat des Servers geprüft</translation>
    </message>
    <message>
        <source>require: encrypted, the certificate not checked</source>
        <translation>require: verschlüsselt, Zertifikat nicht geprüft</translation>
    </message>
    <message>
        <source>prefer: encrypted when the server offers it</source>
        <translation>prefer: verschlüsselt, wenn der Server es anbietet</translation>
    </message>
    <message>
        <source>disable: not encrypted (a server on this computer)</source>
        <translation>disable: nicht verschlüsselt (ein Server auf diesem Computer)</translation>
    </message>
    <message>
        <source>the server&apos;s CA certificate (default ~/.postgresql/root.crt)</source>
        <translation>das CA-Zertifikat des Servers (Standard ~/.postgresql/root.crt)</translation>
    </message>
    <message>
        <source>kept in the keychain, never shown again</source>
        <translation>im Schlüsselbund aufbewahrt, nie wieder angezeigt</translation>
    </message>
    <message>
        <source>Recorded with every call you make, so the team can tell whose call it is</source>
        <translation>Wird mit jedem Ihrer Aufrufe gespeichert, damit das Team sieht, wessen Aufruf es ist</translation>
    </message>
    <message>
        <source>Connect to the server with these settings and say what happened; nothing is created or changed there</source>
        <translation>Mit diesen Einstellungen zum Server verbinden und sagen, was geschah; dort wird nichts angelegt oder geändert</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>Host:</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>Port:</translation>
    </message>
    <message>
        <source>Database:</source>
        <translation>Datenbank:</translation>
    </message>
    <message>
        <source>User:</source>
        <translation>Benutzer:</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>Passwort:</translation>
    </message>
    <message>
        <source>TLS:</source>
        <translation>TLS:</translation>
    </message>
    <message>
        <source>Root certificate:</source>
        <translation>Stammzertifikat:</translation>
    </message>
    <message>
        <source>The password goes into the system keychain (the entry callscope-cli history login makes), never into the settings file, and is not shown again. The studio opens the chosen history the next time it starts; callscope-cli keeps using its --db option.</source>
        <translation>Das Passwort kommt in den Schlüsselbund des Systems (der Eintrag, den callscope-cli history login anlegt), nie in die Einstellungsdatei, und wird nicht wieder angezeigt. Das Studio öffnet den gewählten Verlauf beim nächsten Start; callscope-cli verwendet weiter seine Option --db.</translation>
    </message>
    <message>
        <source>Your name in the history:</source>
        <translation>Ihr Name im Verlauf:</translation>
    </message>
    <message>
        <source>In use now: %1</source>
        <translation>Jetzt verwendet: %1</translation>
    </message>
    <message>
        <source>Read-only: %1</source>
        <translation>Schreibgeschützt: %1</translation>
    </message>
    <message>
        <source>Give the server&apos;s host name (or the folder of its socket).</source>
        <translation>Geben Sie den Hostnamen des Servers an (oder den Ordner seines Sockets).</translation>
    </message>
    <message>
        <source>Give the name of the database on the server.</source>
        <translation>Geben Sie den Namen der Datenbank auf dem Server an.</translation>
    </message>
    <message>
        <source>Give your user (role) on the server.</source>
        <translation>Geben Sie Ihren Benutzer (Ihre Rolle) auf dem Server an.</translation>
    </message>
    <message>
        <source>“%1” is not a host name.</source>
        <translation>„%1“ ist kein Hostname.</translation>
    </message>
    <message>
        <source>These settings do not make a server address: %1</source>
        <translation>Diese Einstellungen ergeben keine Serveradresse: %1</translation>
    </message>
    <message>
        <source>A password for %1 is in the keychain; type one to replace it.</source>
        <translation>Ein Passwort für %1 ist im Schlüsselbund; geben Sie eines ein, um es zu ersetzen.</translation>
    </message>
    <message>
        <source>No password for %1 in the keychain yet (without one, PGPASSFILE or ~/.pgpass is used).</source>
        <translation>Noch kein Passwort für %1 im Schlüsselbund (ohne eines werden PGPASSFILE oder ~/.pgpass verwendet).</translation>
    </message>
    <message>
        <source>The keychain cannot be used: %1</source>
        <translation>Der Schlüsselbund kann nicht verwendet werden: %1</translation>
    </message>
    <message>
        <source>Root Certificate</source>
        <translation>Stammzertifikat</translation>
    </message>
    <message>
        <source>Certificates (*.crt *.pem);;All files (*)</source>
        <translation>Zertifikate (*.crt *.pem);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Not tested: %1</source>
        <translation>Nicht getestet: %1</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Verbinde mit %1…</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>the file on this computer</source>
        <translation>die Datei auf diesem Computer</translation>
    </message>
    <message>
        <source>Saved. The studio opens %1 from its next start.</source>
        <translation>Gespeichert. Das Studio öffnet ab dem nächsten Start %1.</translation>
    </message>
    <message>
        <source>Saved, but the keychain refused the password: %1. Type it again once the keychain can be used.</source>
        <translation>Gespeichert, aber der Schlüsselbund hat das Passwort abgelehnt: %1. Geben Sie es erneut ein, sobald der Schlüsselbund verwendet werden kann.</translation>
    </message>
    <message>
        <source>Saved, the password in the keychain. The studio opens %1 from its next start.</source>
        <translation>Gespeichert, das Passwort im Schlüsselbund. Das Studio öffnet ab dem nächsten Start %1.</translation>
    </message>
</context>
<context>
    <name>Callscope::HttpJob</name>
    <message>
        <source>The provider sent nothing for %1 s; the request timed out.</source>
        <translation>Der Anbieter hat %1 s lang nichts gesendet; die Anfrage ist abgelaufen.</translation>
    </message>
    <message>
        <source>The request took longer than %1 s and was stopped.</source>
        <translation>Die Anfrage dauerte länger als %1 s und wurde abgebrochen.</translation>
    </message>
    <message>
        <source>Could not reach the provider: %1</source>
        <translation>Der Anbieter ist nicht erreichbar: %1</translation>
    </message>
    <message>
        <source>The connection to the provider was lost: %1</source>
        <translation>Die Verbindung zum Anbieter ist abgebrochen: %1</translation>
    </message>
    <message>
        <source>The connection was lost after the reply had started (%1). It was not retried because the model&apos;s partial answer had already been received.</source>
        <translation>Die Verbindung brach ab, nachdem die Antwort begonnen hatte (%1). Sie wurde nicht wiederholt, weil die Teilantwort des Modells schon empfangen war.</translation>
    </message>
    <message>
        <source>The provider closed the stream before its end signal.</source>
        <translation>Der Anbieter hat den Stream vor dessen Endesignal geschlossen.</translation>
    </message>
    <message>
        <source>The provider redirected the request to another origin (%1). Redirects are followed only within the same origin so the API key never leaves it; check the engine&apos;s base URL.</source>
        <translation>Der Anbieter hat die Anfrage an einen anderen Ursprung umgeleitet (%1). Umleitungen werden nur innerhalb desselben Ursprungs befolgt, damit der API-Schlüssel ihn nie verlässt; prüfen Sie die Basis-URL der Engine.</translation>
    </message>
    <message>
        <source>The provider answered with an unexpected redirect (HTTP %1).</source>
        <translation>Der Anbieter antwortete mit einer unerwarteten Umleitung (HTTP %1).</translation>
    </message>
    <message>
        <source>The provider&apos;s reply could not be read: %1</source>
        <translation>Die Antwort des Anbieters konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The provider answered HTTP %1 with a body that could not be read.</source>
        <translation>Der Anbieter antwortete mit HTTP %1 und einem nicht lesbaren Inhalt.</translation>
    </message>
    <message>
        <source>The provider&apos;s reply exceeded %1 MiB and was stopped.</source>
        <translation>Die Antwort des Anbieters war größer als %1 MiB und wurde abgebrochen.</translation>
    </message>
    <message>
        <source>A stream event exceeded %1 MiB without ending; the stream was stopped.</source>
        <translation>Ein Stream-Ereignis war größer als %1 MiB, ohne zu enden; der Stream wurde abgebrochen.</translation>
    </message>
    <message>
        <source>The provider redirected the request more than %1 times.</source>
        <translation>Der Anbieter hat die Anfrage mehr als %1-mal umgeleitet.</translation>
    </message>
    <message>
        <source>The request was cancelled.</source>
        <translation>Die Anfrage wurde abgebrochen.</translation>
    </message>
    <message>
        <source>This engine type cannot send HTTP requests.</source>
        <translation>Dieser Engine-Typ kann keine HTTP-Anfragen senden.</translation>
    </message>
    <message>
        <source>the connection closed before the reply was complete</source>
        <translation>die Verbindung wurde geschlossen, bevor die Antwort vollständig war</translation>
    </message>
    <message>
        <source>the server at %1 answered %2</source>
        <translation>der Server unter %1 antwortete %2</translation>
    </message>
    <message>
        <source>the server at %1 answered %2: it does not look like %3</source>
        <translation>der Server unter %1 antwortete %2: das sieht nicht nach %3 aus</translation>
    </message>
    <message>
        <source>a Chat Completions API</source>
        <translation>einer Chat-Completions-API</translation>
    </message>
    <message>
        <source>an OpenAI Responses API</source>
        <translation>einer OpenAI-Responses-API</translation>
    </message>
    <message>
        <source>an Anthropic Messages API</source>
        <translation>einer Anthropic-Messages-API</translation>
    </message>
    <message>
        <source>a Gemini API</source>
        <translation>einer Gemini-API</translation>
    </message>
    <message>
        <source>the API this engine speaks</source>
        <translation>der API, die diese Engine spricht</translation>
    </message>
</context>
<context>
    <name>Callscope::JobsButton</name>
    <message>
        <source>Calls in flight: open the list to cancel one</source>
        <translation>Laufende Aufrufe: Öffnen Sie die Liste, um einen abzubrechen</translation>
    </message>
    <message>
        <source>waiting for a free place</source>
        <translation>wartet auf einen freien Platz</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>startet</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>waiting for your approval</source>
        <translation>wartet auf Ihre Freigabe</translation>
    </message>
    <message>
        <source>waiting for a tool result</source>
        <translation>wartet auf ein Werkzeugergebnis</translation>
    </message>
    <message>
        <source>running for %1 s</source>
        <translation>läuft seit %1 s</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>1 call running</source>
        <translation>1 Aufruf läuft</translation>
    </message>
    <message>
        <source>%1 calls running</source>
        <translation>%1 Aufrufe laufen</translation>
    </message>
    <message>
        <source>, %1 waiting</source>
        <translation>, %1 wartend</translation>
    </message>
    <message>
        <source>No calls running</source>
        <translation>Keine laufenden Aufrufe</translation>
    </message>
    <message>
        <source>Cancel: %1 (%2)</source>
        <translation>Abbrechen: %1 (%2)</translation>
    </message>
    <message>
        <source>Cancel all</source>
        <translation>Alle abbrechen</translation>
    </message>
</context>
<context>
    <name>Callscope::KeyResolver</name>
    <message>
        <source>The environment variable %1 named by api_key_env is not set (or is empty). Set it to the key, or store a key for the engine profile with &apos;callscope-cli engines add&apos;.</source>
        <translation>Die von api_key_env genannte Umgebungsvariable %1 ist nicht gesetzt (oder leer). Setzen Sie sie auf den Schlüssel oder speichern Sie einen Schlüssel für das Engine-Profil mit „callscope-cli engines add“.</translation>
    </message>
</context>
<context>
    <name>Callscope::LaunchResolver</name>
    <message>
        <source>no engine profile named &quot;%1&quot; (list them with: callscope-cli engines list)</source>
        <translation>kein Engine-Profil namens „%1“ (auflisten mit: callscope-cli engines list)</translation>
    </message>
    <message>
        <source>replaying call %1 needs the history database</source>
        <translation>die Wiedergabe von Aufruf %1 braucht die Verlaufsdatenbank</translation>
    </message>
    <message>
        <source>cannot replay call %1: %2</source>
        <translation>Aufruf %1 kann nicht wiedergegeben werden: %2</translation>
    </message>
    <message>
        <source>no network access for engine %1</source>
        <translation>kein Netzwerkzugriff für Engine %1</translation>
    </message>
    <message>
        <source>the call service is gone</source>
        <translation>der Aufrufdienst ist nicht mehr da</translation>
    </message>
    <message>
        <source>engine type %1 cannot be used here</source>
        <translation>Engine-Typ %1 kann hier nicht verwendet werden</translation>
    </message>
</context>
<context>
    <name>Callscope::LimitsPage</name>
    <message>
        <source>no limit of its own</source>
        <translation>keine eigene Grenze</translation>
    </message>
    <message>
        <source>Calls beyond these limits wait in a queue and start as soon as a place is free. When a provider answers “too many requests”, Callscope also sends fewer requests to that engine for a while, on its own. An engine profile can set its own limit (Engines and keys).</source>
        <translation>Aufrufe über diese Grenzen hinaus warten in einer Warteschlange und starten, sobald ein Platz frei ist. Antwortet ein Anbieter mit „zu viele Anfragen“, sendet Callscope dieser Engine außerdem von selbst eine Zeit lang weniger Anfragen. Ein Engine-Profil kann eine eigene Grenze setzen (Engines und Schlüssel).</translation>
    </message>
    <message>
        <source>Calls at once, all engines:</source>
        <translation>Gleichzeitige Aufrufe, alle Engines:</translation>
    </message>
    <message>
        <source>Calls at once, per engine:</source>
        <translation>Gleichzeitige Aufrufe je Engine:</translation>
    </message>
</context>
<context>
    <name>Callscope::Lint</name>
    <message>
        <source>OpenAI</source>
        <translation>OpenAI</translation>
    </message>
    <message>
        <source>Anthropic</source>
        <translation>Anthropic</translation>
    </message>
    <message>
        <source>Gemini</source>
        <translation>Gemini</translation>
    </message>
    <message>
        <source>OpenAI-compatible servers</source>
        <translation>OpenAI-kompatible Server</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>Wiedergabe</translation>
    </message>
    <message>
        <source>output_parser is ignored when a response_schema is set: the output comes from submit_output</source>
        <translation>output_parser wird ignoriert, wenn ein response_schema gesetzt ist: Die Ausgabe kommt von submit_output</translation>
    </message>
    <message>
        <source>%1 tools (counting submit_output) exceed the %2 limit of %3 tools per request; expose only the tools this call needs</source>
        <translation>%1 Werkzeuge (submit_output mitgezählt) überschreiten die Grenze von %2 mit %3 Werkzeugen pro Anfrage; bieten Sie nur die Werkzeuge an, die dieser Aufruf braucht</translation>
    </message>
    <message>
        <source>tool name %1 is not snake_case; use lowercase words joined by &quot;_&quot;, verb first (for example get_ticket)</source>
        <translation>Werkzeugname %1 ist nicht snake_case; verwenden Sie kleingeschriebene, mit „_“ verbundene Wörter, das Verb zuerst (zum Beispiel get_ticket)</translation>
    </message>
    <message>
        <source>tool name %1 breaks the %2 rule for function names (%3); the request will be rejected</source>
        <translation>Werkzeugname %1 verletzt die Regel von %2 für Funktionsnamen (%3); die Anfrage wird abgelehnt</translation>
    </message>
    <message>
        <source>tool %1 has no description; say when to use it and when not to</source>
        <translation>Werkzeug %1 hat keine Beschreibung; sagen Sie, wann es benutzt werden soll und wann nicht</translation>
    </message>
    <message>
        <source>description is %1 characters; providers cut tool descriptions after %2</source>
        <translation>die Beschreibung hat %1 Zeichen; Anbieter kürzen Werkzeugbeschreibungen nach %2</translation>
    </message>
    <message>
        <source>objects nest %1 levels deep here; OpenAI strict mode allows %2</source>
        <translation>Objekte sind hier %1 Ebenen tief verschachtelt; der Strict-Modus von OpenAI erlaubt %2</translation>
    </message>
    <message>
        <source>objects nest %1 levels deep here; older OpenAI documentation allowed only %2 levels in strict mode</source>
        <translation>Objekte sind hier %1 Ebenen tief verschachtelt; ältere OpenAI-Dokumentation erlaubte im Strict-Modus nur %2 Ebenen</translation>
    </message>
    <message>
        <source>%1 properties exceed OpenAI&apos;s strict-mode limit of %2</source>
        <translation>%1 Eigenschaften überschreiten die Strict-Modus-Grenze von OpenAI von %2</translation>
    </message>
    <message>
        <source>%1 enum values exceed OpenAI&apos;s strict-mode limit of %2</source>
        <translation>%1 enum-Werte überschreiten die Strict-Modus-Grenze von OpenAI von %2</translation>
    </message>
    <message>
        <source>property names and enum values add up to %1 characters; OpenAI&apos;s strict mode allows %2</source>
        <translation>Eigenschaftsnamen und enum-Werte ergeben zusammen %1 Zeichen; der Strict-Modus von OpenAI erlaubt %2</translation>
    </message>
    <message>
        <source>the root is a union (anyOf/oneOf); tool arguments must be one object with &quot;type&quot;: &quot;object&quot; (wrap the union in a property)</source>
        <translation>die Wurzel ist eine Vereinigung (anyOf/oneOf); Werkzeugargumente müssen ein Objekt mit &quot;type&quot;: &quot;object&quot; sein (verpacken Sie die Vereinigung in eine Eigenschaft)</translation>
    </message>
    <message>
        <source>the root has no &quot;type&quot;: &quot;object&quot;; providers expect tool arguments to be an object</source>
        <translation>die Wurzel hat kein &quot;type&quot;: &quot;object&quot;; Anbieter erwarten Werkzeugargumente als Objekt</translation>
    </message>
    <message>
        <source>the root has &quot;type&quot; %1; tool arguments must be an object</source>
        <translation>die Wurzel hat &quot;type&quot; %1; Werkzeugargumente müssen ein Objekt sein</translation>
    </message>
    <message>
        <source>the description lists a closed set (%1); put the values in &quot;enum&quot; so the model cannot invent others</source>
        <translation>die Beschreibung zählt eine geschlossene Menge auf (%1); setzen Sie die Werte in &quot;enum&quot;, damit das Modell keine anderen erfinden kann</translation>
    </message>
    <message>
        <source>maxLength %1 is above the %2 bytes OpenAI documents for one argument string; longer values may be cut off</source>
        <translation>maxLength %1 liegt über den %2 Bytes, die OpenAI für eine Argumentzeichenkette dokumentiert; längere Werte können abgeschnitten werden</translation>
    </message>
    <message>
        <source>object without &quot;additionalProperties&quot;: false; OpenAI strict mode needs it on every object</source>
        <translation>Objekt ohne &quot;additionalProperties&quot;: false; der Strict-Modus von OpenAI verlangt es bei jedem Objekt</translation>
    </message>
    <message>
        <source>&quot;additionalProperties&quot; must be false in OpenAI strict mode</source>
        <translation>&quot;additionalProperties&quot; muss im Strict-Modus von OpenAI false sein</translation>
    </message>
    <message>
        <source>property %1 is not in &quot;required&quot;; OpenAI strict mode needs every property there (make it optional with &quot;type&quot;: %2)</source>
        <translation>Eigenschaft %1 steht nicht in &quot;required&quot;; der Strict-Modus von OpenAI verlangt dort jede Eigenschaft (machen Sie sie mit &quot;type&quot;: %2 optional)</translation>
    </message>
    <message>
        <source>; a single-entry allOf can be inlined</source>
        <translation>; ein allOf mit nur einem Eintrag kann eingesetzt werden</translation>
    </message>
    <message>
        <source>; use anyOf</source>
        <translation>; verwenden Sie anyOf</translation>
    </message>
    <message>
        <source>; state the default in the description</source>
        <translation>; nennen Sie den Standardwert in der Beschreibung</translation>
    </message>
    <message>
        <source>OpenAI strict mode does not support %1%2</source>
        <translation>der Strict-Modus von OpenAI unterstützt %1 nicht%2</translation>
    </message>
    <message>
        <source>format %1 is not one OpenAI strict mode supports (%2)</source>
        <translation>format %1 gehört nicht zu den Formaten, die der Strict-Modus von OpenAI unterstützt (%2)</translation>
    </message>
    <message>
        <source>&quot;$ref&quot; has sibling keywords (%1); OpenAI strict mode wants a bare $ref, so they must be inlined into the referenced schema</source>
        <translation>&quot;$ref&quot; hat Nachbar-Schlüsselwörter (%1); der Strict-Modus von OpenAI verlangt ein alleinstehendes $ref, daher müssen sie in das referenzierte Schema übernommen werden</translation>
    </message>
    <message>
        <source>Anthropic structured output supports minItems 0 or 1 only; %1 is moved into the description and not enforced (the result is still validated here)</source>
        <translation>strukturierte Ausgabe bei Anthropic unterstützt nur minItems 0 oder 1; %1 wird in die Beschreibung verschoben und nicht erzwungen (das Ergebnis wird hier trotzdem validiert)</translation>
    </message>
    <message>
        <source>Anthropic structured output does not enforce %1; it is moved into the description as a hint (the result is still validated here)</source>
        <translation>strukturierte Ausgabe bei Anthropic erzwingt %1 nicht; es wird als Hinweis in die Beschreibung verschoben (das Ergebnis wird hier trotzdem validiert)</translation>
    </message>
    <message>
        <source>format %1 is not one Anthropic structured output supports (%2)</source>
        <translation>format %1 gehört nicht zu den Formaten, die strukturierte Ausgabe bei Anthropic unterstützt (%2)</translation>
    </message>
    <message>
        <source>Gemini gets &quot;const&quot; rewritten to a one-value &quot;enum&quot;</source>
        <translation>für Gemini wird &quot;const&quot; in ein &quot;enum&quot; mit einem Wert umgeschrieben</translation>
    </message>
    <message>
        <source>%1 is dropped from schemas sent to Gemini, so the model never sees it (the result is still validated here)</source>
        <translation>%1 wird aus an Gemini gesendeten Schemas entfernt, das Modell sieht es also nie (das Ergebnis wird hier trotzdem validiert)</translation>
    </message>
    <message>
        <source>parameter name %1 breaks Gemini&apos;s rule (letters, digits and _, at most 64 characters)</source>
        <translation>Parametername %1 verletzt die Regel von Gemini (Buchstaben, Ziffern und _, höchstens 64 Zeichen)</translation>
    </message>
    <message>
        <source>recursive &quot;$ref&quot; to %1; Gemini refuses recursive schemas (unroll it to a fixed depth)</source>
        <translation>rekursives &quot;$ref&quot; auf %1; Gemini lehnt rekursive Schemas ab (entrollen Sie es bis zu einer festen Tiefe)</translation>
    </message>
    <message>
        <source>tool names are snake_case</source>
        <translation>Werkzeugnamen sind snake_case</translation>
    </message>
    <message>
        <source>tool names are verb_noun, not a single word</source>
        <translation>Werkzeugnamen sind verb_noun, kein einzelnes Wort</translation>
    </message>
    <message>
        <source>tool names match the provider&apos;s name rule</source>
        <translation>Werkzeugnamen erfüllen die Namensregel des Anbieters</translation>
    </message>
    <message>
        <source>every tool has a description</source>
        <translation>jedes Werkzeug hat eine Beschreibung</translation>
    </message>
    <message>
        <source>descriptions are at most 1024 characters</source>
        <translation>Beschreibungen haben höchstens 1024 Zeichen</translation>
    </message>
    <message>
        <source>no more tools than the provider accepts (OpenAI 128, Anthropic 64)</source>
        <translation>nicht mehr Werkzeuge, als der Anbieter annimmt (OpenAI 128, Anthropic 64)</translation>
    </message>
    <message>
        <source>tool and response schemas have an object root</source>
        <translation>Werkzeug- und Antwortschemas haben ein Objekt als Wurzel</translation>
    </message>
    <message>
        <source>closed sets named in a description are an enum</source>
        <translation>in einer Beschreibung genannte geschlossene Mengen sind ein enum</translation>
    </message>
    <message>
        <source>string arguments fit OpenAI&apos;s 8192-byte limit</source>
        <translation>Zeichenketten-Argumente passen in die 8192-Byte-Grenze von OpenAI</translation>
    </message>
    <message>
        <source>output_parser has no effect with a response schema</source>
        <translation>output_parser hat mit einem Antwortschema keine Wirkung</translation>
    </message>
    <message>
        <source>OpenAI strict: additionalProperties false on every object</source>
        <translation>OpenAI strict: additionalProperties false bei jedem Objekt</translation>
    </message>
    <message>
        <source>OpenAI strict: every property is required</source>
        <translation>OpenAI strict: jede Eigenschaft ist erforderlich</translation>
    </message>
    <message>
        <source>OpenAI strict: no unsupported keywords</source>
        <translation>OpenAI strict: keine nicht unterstützten Schlüsselwörter</translation>
    </message>
    <message>
        <source>OpenAI strict: only supported string formats</source>
        <translation>OpenAI strict: nur unterstützte Zeichenkettenformate</translation>
    </message>
    <message>
        <source>OpenAI strict: $ref without sibling keywords</source>
        <translation>OpenAI strict: $ref ohne Nachbar-Schlüsselwörter</translation>
    </message>
    <message>
        <source>OpenAI strict: nesting depth limit</source>
        <translation>OpenAI strict: Grenze der Verschachtelungstiefe</translation>
    </message>
    <message>
        <source>OpenAI strict: property, enum and size caps</source>
        <translation>OpenAI strict: Grenzen für Eigenschaften, enum und Größe</translation>
    </message>
    <message>
        <source>Anthropic structured output: minItems 0 or 1 only</source>
        <translation>Anthropic strukturierte Ausgabe: nur minItems 0 oder 1</translation>
    </message>
    <message>
        <source>Anthropic structured output: keywords it does not enforce</source>
        <translation>Anthropic strukturierte Ausgabe: nicht erzwungene Schlüsselwörter</translation>
    </message>
    <message>
        <source>Anthropic structured output: only supported string formats</source>
        <translation>Anthropic strukturierte Ausgabe: nur unterstützte Zeichenkettenformate</translation>
    </message>
    <message>
        <source>Gemini: no recursive $ref</source>
        <translation>Gemini: kein rekursives $ref</translation>
    </message>
    <message>
        <source>Gemini: const becomes a one-value enum</source>
        <translation>Gemini: const wird zu einem enum mit einem Wert</translation>
    </message>
    <message>
        <source>Gemini: keywords dropped before sending</source>
        <translation>Gemini: vor dem Senden entfernte Schlüsselwörter</translation>
    </message>
    <message>
        <source>Gemini: parameter names [a-zA-Z0-9_]{1,64}</source>
        <translation>Gemini: Parameternamen [a-zA-Z0-9_]{1,64}</translation>
    </message>
    <message>
        <source>%1 has no json_schema structured output (it needs gpt-4o-2024-08-06 or newer)</source>
        <translation>%1 hat keine strukturierte Ausgabe mit json_schema (sie braucht gpt-4o-2024-08-06 oder neuer)</translation>
    </message>
    <message>
        <source>%1 has no structured output (output_config.format needs a Claude 4 model)</source>
        <translation>%1 hat keine strukturierte Ausgabe (output_config.format braucht ein Claude-4-Modell)</translation>
    </message>
    <message>
        <source>%1 has no JSON-schema output (responseJsonSchema needs Gemini 1.5 or newer)</source>
        <translation>%1 hat keine JSON-Schema-Ausgabe (responseJsonSchema braucht Gemini 1.5 oder neuer)</translation>
    </message>
    <message>
        <source>output_mode is used only with a response_schema; without one the output parser reads the reply</source>
        <translation>output_mode wird nur mit einem response_schema verwendet; ohne eines liest der Ausgabeparser die Antwort</translation>
    </message>
    <message>
        <source>text_output does not apply in %1 mode: the reply text itself is the output</source>
        <translation>text_output gilt nicht im Modus %1: Der Antworttext selbst ist die Ausgabe</translation>
    </message>
    <message>
        <source>native output on an OpenAI-compatible server depends on the server: Ollama, llama.cpp and vLLM turn response_format json_schema into a grammar, others may ignore it (the reply is validated here either way)</source>
        <translation>native Ausgabe auf einem OpenAI-kompatiblen Server hängt vom Server ab: Ollama, llama.cpp und vLLM machen aus response_format json_schema eine Grammatik, andere ignorieren es womöglich (die Antwort wird hier in jedem Fall validiert)</translation>
    </message>
    <message>
        <source>native output will be rejected: %1; use output_mode tool or prompted</source>
        <translation>native Ausgabe wird abgelehnt werden: %1; verwenden Sie output_mode tool oder prompted</translation>
    </message>
    <message>
        <source>sent to %1 changed: %2</source>
        <translation>beim Senden an %1 geändert: %2</translation>
    </message>
    <message>
        <source>output_mode has no effect without a response schema</source>
        <translation>output_mode hat ohne Antwortschema keine Wirkung</translation>
    </message>
    <message>
        <source>text_output has no effect in native or prompted mode</source>
        <translation>text_output hat im Modus native oder prompted keine Wirkung</translation>
    </message>
    <message>
        <source>native output on an engine or model that cannot do it</source>
        <translation>native Ausgabe auf einer Engine oder einem Modell, das sie nicht beherrscht</translation>
    </message>
    <message>
        <source>native output: each change made to the schema sent</source>
        <translation>native Ausgabe: jede Änderung am gesendeten Schema</translation>
    </message>
    <message>
        <source>unknown field &quot;%1&quot;: it is kept in the file but has no effect</source>
        <translation>unbekanntes Feld „%1“: Es bleibt in der Datei, wirkt aber nicht</translation>
    </message>
    <message>
        <source>unknown field &quot;%1&quot; has no effect; did you mean &quot;%2&quot;?</source>
        <translation>unbekanntes Feld „%1“ wirkt nicht; meinten Sie „%2“?</translation>
    </message>
    <message>
        <source>fields the spec format does not know (often a typo)</source>
        <translation>Felder, die das Spec-Format nicht kennt (oft ein Tippfehler)</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; is reached over plain http: tokens and tool calls travel unencrypted; use https</source>
        <translation>der MCP-Server „%1“ wird über einfaches http erreicht: Tokens und Werkzeugaufrufe werden unverschlüsselt übertragen; verwenden Sie https</translation>
    </message>
    <message>
        <source>tool name %1 is a single word; name it verb_noun (for example %2_items or get_%2) so the model can tell what it does</source>
        <translation>Werkzeugname %1 ist ein einzelnes Wort; nennen Sie es verb_noun (zum Beispiel %2_items oder get_%2), damit das Modell erkennt, was es tut</translation>
    </message>
    <message>
        <source>the run is refused: %1</source>
        <translation>der Lauf wird abgelehnt: %1</translation>
    </message>
    <message>
        <source>the engine block names the profile &quot;%1&quot; and its own %2: the profile&apos;s key goes only to the profile&apos;s own address and engine type, so the run is refused unless they match</source>
        <translation>der Engine-Block nennt das Profil „%1“ und ein eigenes %2: der Schlüssel des Profils geht nur an dessen eigene Adresse und Engine-Typ, daher wird der Lauf abgelehnt, solange sie nicht übereinstimmen</translation>
    </message>
    <message>
        <source>type</source>
        <translation>type</translation>
    </message>
    <message>
        <source>base_url</source>
        <translation>base_url</translation>
    </message>
    <message>
        <source>%1 is not a provider key variable (those end in _API_KEY): the run is refused unless the variable is allowed (the setting keys/allowed_env, --allow-key-env %1) or the file is trusted</source>
        <translation>%1 ist keine Schlüsselvariable eines Anbieters (diese enden auf _API_KEY): der Lauf wird abgelehnt, es sei denn, die Variable ist erlaubt (die Einstellung keys/allowed_env, --allow-key-env %1) oder der Datei wird vertraut</translation>
    </message>
    <message>
        <source>a profile&apos;s key goes only to that profile&apos;s address and engine type</source>
        <translation>der Schlüssel eines Profils geht nur an dessen Adresse und Engine-Typ</translation>
    </message>
    <message>
        <source>key variables other than *_API_KEY need the user&apos;s allow list or trust</source>
        <translation>andere Schlüsselvariablen als *_API_KEY brauchen die Erlaubnisliste des Benutzers oder Vertrauen</translation>
    </message>
    <message>
        <source>remote MCP servers are reached over https</source>
        <translation>entfernte MCP-Server werden über https erreicht</translation>
    </message>
    <message>
        <source>recursive &quot;$ref&quot; to %1; Anthropic structured output refuses recursive schemas (unroll it to a fixed depth)</source>
        <translation>rekursives &quot;$ref&quot; auf %1; strukturierte Ausgabe von Anthropic lehnt rekursive Schemas ab (entrollen Sie es bis zu einer festen Tiefe)</translation>
    </message>
    <message>
        <source>%1 (this schema has no &quot;$schema&quot;, so it is read as 2020-12)</source>
        <translation>%1 (dieses Schema hat kein &quot;$schema&quot;, es wird also als 2020-12 gelesen)</translation>
    </message>
    <message>
        <source>a schema without $schema (2020-12) uses no form of an older draft</source>
        <translation>ein Schema ohne $schema (2020-12) verwendet keine Form eines älteren Drafts</translation>
    </message>
    <message>
        <source>Anthropic structured output: no recursive $ref</source>
        <translation>strukturierte Ausgabe von Anthropic: kein rekursives $ref</translation>
    </message>
    <message>
        <source>stop_early needs a response_schema: without one there is nothing to check the answer against while it streams</source>
        <translation>stop_early braucht ein response_schema: ohne eines gibt es nichts, woran die Antwort während des Streamens geprüft werden könnte</translation>
    </message>
    <message>
        <source>stop_early does not apply in prompted mode: the reply text may hold words around the JSON, so it is checked only once it is complete</source>
        <translation>stop_early gilt im Modus prompted nicht: Der Antworttext kann Wörter um das JSON enthalten, daher wird er erst geprüft, wenn er vollständig ist</translation>
    </message>
    <message>
        <source>stop_early needs a streamed reply: engine.stream is false</source>
        <translation>stop_early braucht eine gestreamte Antwort: engine.stream ist false</translation>
    </message>
    <message>
        <source>stop_early has no effect without a schema, in prompted mode or unstreamed</source>
        <translation>stop_early hat ohne Schema, im Modus prompted oder ohne Streaming keine Wirkung</translation>
    </message>
</context>
<context>
    <name>Callscope::MainWindow</name>
    <message>
        <source>Describe the task here.</source>
        <translation>Beschreiben Sie hier die Aufgabe.</translation>
    </message>
    <message>
        <source>&amp;New Spec</source>
        <translation>&amp;Neue Spezifikation</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen …</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save the spec</source>
        <translation>Die Spezifikation speichern</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter …</translation>
    </message>
    <message>
        <source>Save the spec under a new name</source>
        <translation>Die Spezifikation unter einem neuen Namen speichern</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>&amp;Lint Now</source>
        <translation>Jetzt &amp;prüfen</translation>
    </message>
    <message>
        <source>Check the spec and list its findings</source>
        <translation>Die Spezifikation prüfen und ihre Befunde auflisten</translation>
    </message>
    <message>
        <source>&amp;About Callscope</source>
        <translation>&amp;Über Callscope</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>Befunde</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>&amp;Ausschneiden</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>&amp;Einfügen</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>Alles a&amp;uswählen</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Wrap Long Lines</source>
        <translation>Lange Zeilen &amp;umbrechen</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>Aus&amp;führen</translation>
    </message>
    <message>
        <source>Lint &amp;For</source>
        <translation>Prüfen &amp;für</translation>
    </message>
    <message>
        <source>The Spec&apos;s Engine</source>
        <translation>Die Engine der Spezifikation</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation>Liste &amp;leeren</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>%1 kann nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Saved %1 (it still has errors)</source>
        <translation>%1 gespeichert (sie enthält noch Fehler)</translation>
    </message>
    <message>
        <source>Open Spec</source>
        <translation>Spezifikation öffnen</translation>
    </message>
    <message>
        <source>Save Spec As</source>
        <translation>Spezifikation speichern unter</translation>
    </message>
    <message>
        <source>Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>Save them first?</source>
        <translation>Zuerst speichern?</translation>
    </message>
    <message>
        <source>Findings (%1)</source>
        <translation>Befunde (%1)</translation>
    </message>
    <message>
        <source>Untitled spec</source>
        <translation>Unbenannte Spezifikation</translation>
    </message>
    <message>
        <source>%1[*] — Callscope</source>
        <translation>%1[*] — Callscope</translation>
    </message>
    <message>
        <source>Line %1, Column %2</source>
        <translation>Zeile %1, Spalte %2</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Callscope %1&lt;/h3&gt;&lt;p&gt;A desktop studio for engineering LLM calls: write a spec, run it, step through the tool loop and get a validated result.&lt;/p&gt;&lt;p&gt;Qt %2 (built with Qt %3)&lt;br&gt;QtKeychain %4&lt;br&gt;Syntax highlighting: %5&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Callscope %1&lt;/h3&gt;&lt;p&gt;Ein Desktop-Studio für die Entwicklung von LLM-Aufrufen: Spezifikation schreiben, ausführen, die Werkzeugschleife schrittweise durchlaufen und ein validiertes Ergebnis erhalten.&lt;/p&gt;&lt;p&gt;Qt %2 (gebaut mit Qt %3)&lt;br&gt;QtKeychain %4&lt;br&gt;Syntaxhervorhebung: %5&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About Callscope</source>
        <translation>Über Callscope</translation>
    </message>
    <message>
        <source>&amp;Breakpoints</source>
        <translation>Hal&amp;tepunkte</translation>
    </message>
    <message>
        <source>Cancelling the calls in flight before closing…</source>
        <translation>Laufende Aufrufe werden vor dem Schließen abgebrochen …</translation>
    </message>
    <message>
        <source>Show or Hide &amp;Panels</source>
        <translation>&amp;Bereiche ein- und ausblenden</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>List every command that has a keyboard shortcut</source>
        <translation>Alle Befehle mit Tastenkürzel auflisten</translation>
    </message>
    <message>
        <source>Bring the %1 panel to the front</source>
        <translation>Den Bereich %1 nach vorne holen</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Sessions ● waiting for you</source>
        <translation>Sitzungen ● wartet auf Sie</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>Sitzungen</translation>
    </message>
    <message>
        <source>Open &amp;Sample</source>
        <translation>Beispie&amp;l öffnen</translation>
    </message>
    <message>
        <source>Lunar landing: extraction into a strict schema, with a reask</source>
        <translation>Mondlandung: Extraktion in ein striktes Schema, mit erneuter Nachfrage</translation>
    </message>
    <message>
        <source>Planner: a tool loop, with an approval</source>
        <translation>Planer: eine Werkzeugschleife, mit einer Freigabe</translation>
    </message>
    <message>
        <source>Refusal: the model refuses</source>
        <translation>Ablehnung: Das Modell lehnt ab</translation>
    </message>
    <message>
        <source>Open the bundled sample %1; it runs offline, with no key</source>
        <translation>Das mitgelieferte Beispiel %1 öffnen; es läuft offline, ohne Schlüssel</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>&amp;Dokumentation</translation>
    </message>
    <message>
        <source>Read how Callscope works: the spec format, the command line, the export format</source>
        <translation>Lesen, wie Callscope funktioniert: das Spezifikationsformat, die Befehlszeile, das Exportformat</translation>
    </message>
    <message>
        <source>History: %1</source>
        <translation>Verlauf: %1</translation>
    </message>
    <message>
        <source>Cannot create %1 for the samples.</source>
        <translation>%1 kann für die Beispiele nicht angelegt werden.</translation>
    </message>
    <message>
        <source>Cannot copy the sample to %1.</source>
        <translation>Das Beispiel kann nicht nach %1 kopiert werden.</translation>
    </message>
    <message>
        <source>Open documents</source>
        <translation>Offene Dokumente</translation>
    </message>
    <message>
        <source>Start a new spec from a template, in a tab of its own</source>
        <translation>Eine neue Spezifikation aus einer Vorlage beginnen, in einem eigenen Reiter</translation>
    </message>
    <message>
        <source>Open a spec file in a tab of its own</source>
        <translation>Eine Spezifikationsdatei in einem eigenen Reiter öffnen</translation>
    </message>
    <message>
        <source>Open &amp;Folder…</source>
        <translation>&amp;Ordner öffnen…</translation>
    </message>
    <message>
        <source>List a folder&apos;s spec files and experiments in the sidebar</source>
        <translation>Die Spezifikationsdateien und Experimente eines Ordners in der Seitenleiste auflisten</translation>
    </message>
    <message>
        <source>Re&amp;vert</source>
        <translation>&amp;Zurücksetzen</translation>
    </message>
    <message>
        <source>Read the spec&apos;s file again, dropping the unsaved changes</source>
        <translation>Die Datei der Spezifikation neu lesen und die ungespeicherten Änderungen verwerfen</translation>
    </message>
    <message>
        <source>&amp;Close Tab</source>
        <translation>Reiter &amp;schließen</translation>
    </message>
    <message>
        <source>Close the tab in front</source>
        <translation>Den vorderen Reiter schließen</translation>
    </message>
    <message>
        <source>Run the spec in front on the input in its run view</source>
        <translation>Die vordere Spezifikation mit der Eingabe in ihrer Ausführungsansicht ausführen</translation>
    </message>
    <message>
        <source>Open Folder…</source>
        <translation>Ordner öffnen…</translation>
    </message>
    <message>
        <source>List a folder&apos;s spec files and experiments here</source>
        <translation>Die Spezifikationsdateien und Experimente eines Ordners hier auflisten</translation>
    </message>
    <message>
        <source>Spec files of the workspace folder</source>
        <translation>Spezifikationsdateien des Arbeitsordners</translation>
    </message>
    <message>
        <source>Recent files</source>
        <translation>Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>No folder open.</source>
        <translation>Kein Ordner geöffnet.</translation>
    </message>
    <message>
        <source>Open Folder</source>
        <translation>Ordner öffnen</translation>
    </message>
    <message>
        <source>Run View</source>
        <translation>Ausführungsansicht</translation>
    </message>
    <message>
        <source>Bring the run view of the spec in front forward</source>
        <translation>Die Ausführungsansicht der vorderen Spezifikation nach vorn holen</translation>
    </message>
    <message>
        <source>Not saved yet</source>
        <translation>Noch nicht gespeichert</translation>
    </message>
    <message>
        <source>waiting for you</source>
        <translation>wartet auf Sie</translation>
    </message>
    <message>
        <source>No spec is open.</source>
        <translation>Keine Spezifikation ist geöffnet.</translation>
    </message>
    <message>
        <source>%1 is open in another tab; close it first.</source>
        <translation>%1 ist in einem anderen Reiter geöffnet; schließen Sie ihn zuerst.</translation>
    </message>
    <message>
        <source>Cannot read %1 again: %2</source>
        <translation>%1 lässt sich nicht erneut lesen: %2</translation>
    </message>
    <message>
        <source>Read %1 again; Undo brings the changes back.</source>
        <translation>%1 neu gelesen; Rückgängig holt die Änderungen zurück.</translation>
    </message>
    <message>
        <source>%1 has changes that are not saved.</source>
        <translation>%1 hat Änderungen, die nicht gespeichert sind.</translation>
    </message>
    <message>
        <source>KF6 SyntaxHighlighting</source>
        <translation>KF6 SyntaxHighlighting</translation>
    </message>
    <message>
        <source>built-in JSON highlighter</source>
        <translation>eingebaute JSON-Hervorhebung</translation>
    </message>
    <message>
        <source>Advice for: %1 engine</source>
        <translation>Hinweise für: Engine %1</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n Fehler</numerusform>
            <numerusform>%n Fehler</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n Warnung</numerusform>
            <numerusform>%n Warnungen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n note(s)</source>
        <translation>
            <numerusform>%n Hinweis</numerusform>
            <numerusform>%n Hinweise</numerusform>
        </translation>
    </message>
    <message>
        <source>Spec files (*.spec.json *.json);;promptfoo configurations (*.yaml *.yml);;All files (*)</source>
        <translation>Spezifikationsdateien (*.spec.json *.json);;promptfoo-Konfigurationen (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>History: %1 (read-only)</source>
        <translation>Verlauf: %1 (schreibgeschützt)</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Kann nicht ausgeführt werden: %1</translation>
    </message>
</context>
<context>
    <name>Callscope::MatrixModel</name>
    <message>
        <source>not run yet</source>
        <translation>noch nicht ausgeführt</translation>
    </message>
    <message>
        <source>some repeats still to run</source>
        <translation>einige Wiederholungen stehen noch aus</translation>
    </message>
    <message>
        <source>passed in every repeat</source>
        <translation>in jeder Wiederholung bestanden</translation>
    </message>
    <message>
        <source>flaky: passed in some repeats only</source>
        <translation>wackelig: nur in einigen Wiederholungen bestanden</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>nicht bestanden</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1k</source>
        <translation>%1k</translation>
    </message>
    <message>
        <source>%1M</source>
        <translation>%1M</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>kein Preis</translation>
    </message>
    <message>
        <source>$%1</source>
        <translation>$%1</translation>
    </message>
    <message>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <source>%1 in %2: %3, %4 of %5 repeats passed</source>
        <translation>%1 in %2: %3, %4 von %5 Wiederholungen bestanden</translation>
    </message>
    <message>
        <source>%1: %2 of %3 cases passed, %4 flaky</source>
        <translation>%1: %2 von %3 Fällen bestanden, %4 wackelig</translation>
    </message>
    <message>
        <source> (%1 of %2 repeats passed)</source>
        <translation> (%1 von %2 Wiederholungen bestanden)</translation>
    </message>
    <message>
        <source>Repeat %1: %2, %3</source>
        <translation>Wiederholung %1: %2, %3</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>bestanden</translation>
    </message>
    <message>
        <source>not passed</source>
        <translation>nicht bestanden</translation>
    </message>
    <message>
        <source>%1 · %2 in / %3 out tokens · %4</source>
        <translation>%1 · %2 ein / %3 aus Tokens · %4</translation>
    </message>
    <message>
        <source>Call %1</source>
        <translation>Aufruf %1</translation>
    </message>
    <message>
        <source>Click to open the call; select two cells of a case to compare them.</source>
        <translation>Klicken, um den Aufruf zu öffnen; zwei Zellen eines Falls auswählen, um sie zu vergleichen.</translation>
    </message>
    <message>
        <source>Answered from the response cache: no request sent</source>
        <translation>Aus dem Antwort-Cache beantwortet: keine Anfrage gesendet</translation>
    </message>
</context>
<context>
    <name>Callscope::McpCallJob</name>
    <message>
        <source>Tool &quot;%1&quot; timed out after %2 ms.</source>
        <translation>Tool &quot;%1&quot; timed out after %2 ms.</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; was not run: its arguments are not a JSON object (%2).</source>
        <translation>Tool &quot;%1&quot; was not run: its arguments are not a JSON object (%2).</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; is no longer available.</source>
        <translation>Tool &quot;%1&quot; is no longer available.</translation>
    </message>
    <message>
        <source>it is not running</source>
        <translation>it is not running</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; could not run: MCP server &quot;%2&quot; is not available: %3</source>
        <translation>Tool &quot;%1&quot; could not run: MCP server &quot;%2&quot; is not available: %3</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; could not run: MCP server &quot;%2&quot; is not running.</source>
        <translation>Tool &quot;%1&quot; could not run: MCP server &quot;%2&quot; is not running.</translation>
    </message>
    <message>
        <source>MCP error %1: %2</source>
        <translation>MCP error %1: %2</translation>
    </message>
</context>
<context>
    <name>Callscope::McpHttpTransport</name>
    <message>
        <source>MCP server &quot;%1&quot; answered with more than %2 MiB; the answer was dropped</source>
        <translation>MCP-Server „%1“ antwortete mit mehr als %2 MiB; die Antwort wurde verworfen</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; sent a broken event stream: %2</source>
        <translation>MCP-Server „%1“ hat einen fehlerhaften Ereignisstream gesendet: %2</translation>
    </message>
    <message>
        <source>the server still refuses the token after %1 sign-ins (HTTP %2)</source>
        <translation>der Server lehnt das Token nach %1 Anmeldungen weiterhin ab (HTTP %2)</translation>
    </message>
    <message>
        <source>signing in to MCP server &quot;%1&quot; failed: %2</source>
        <translation>die Anmeldung bei MCP-Server „%1“ ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; wants a sign-in (HTTP 401); give &quot;auth&quot; in its spec entry</source>
        <translation>MCP-Server „%1“ verlangt eine Anmeldung (HTTP 401); geben Sie &quot;auth&quot; in seinem Eintrag der Spezifikation an</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; answered HTTP %2 with no body</source>
        <translation>MCP-Server „%1“ antwortete mit HTTP %2 ohne Inhalt</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; answered with JSON that does not parse: %2</source>
        <translation>MCP-Server „%1“ antwortete mit JSON, das sich nicht einlesen lässt: %2</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; answered without a response to the request</source>
        <translation>MCP-Server „%1“ hat geantwortet, aber ohne Antwort auf die Anfrage</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; closed its stream %2 times without answering</source>
        <translation>MCP-Server „%1“ hat seinen Stream %2-mal geschlossen, ohne zu antworten</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; could not resume the stream (HTTP %2)</source>
        <translation>MCP-Server „%1“ konnte den Stream nicht fortsetzen (HTTP %2)</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; closed its event stream</source>
        <translation>MCP-Server „%1“ hat seinen Ereignisstream geschlossen</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; speaks neither Streamable HTTP nor HTTP+SSE: %2</source>
        <translation>MCP-Server „%1“ spricht weder Streamable HTTP noch HTTP+SSE: %2</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; could not be reached: %2</source>
        <translation>MCP-Server „%1“ ist nicht erreichbar: %2</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; answered HTTP %2%3</source>
        <translation>MCP-Server „%1“ antwortete mit HTTP %2%3</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; no longer knows the session (HTTP 404), even a new one</source>
        <translation>MCP-Server „%1“ kennt die Sitzung nicht mehr (HTTP 404), auch eine neue nicht</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; ended the session and refused a new one%2</source>
        <translation>MCP-Server „%1“ hat die Sitzung beendet und eine neue abgelehnt%2</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; ended the session and a new one could not start: %2</source>
        <translation>MCP-Server „%1“ hat die Sitzung beendet und eine neue konnte nicht beginnen: %2</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; sent nothing for %2 s; the request was stopped</source>
        <translation>MCP-Server „%1“ hat %2 s lang nichts gesendet; die Anfrage wurde abgebrochen</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; took longer than %2 s to answer; the request was stopped</source>
        <translation>MCP-Server „%1“ brauchte länger als %2 s für die Antwort; die Anfrage wurde abgebrochen</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; broke off its answer: %2</source>
        <translation>MCP-Server „%1“ hat seine Antwort abgebrochen: %2</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot;: the request was cancelled</source>
        <translation>MCP-Server „%1“: die Anfrage wurde abgebrochen</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot;: %2</source>
        <translation>MCP-Server „%1“: %2</translation>
    </message>
</context>
<context>
    <name>Callscope::McpOAuth</name>
    <message>
        <source>HTTP status %1</source>
        <translation>HTTP-Status %1</translation>
    </message>
    <message>
        <source>the server refused the request (HTTP 403) without asking for more scopes</source>
        <translation>der Server hat die Anfrage abgelehnt (HTTP 403), ohne weitere Scopes zu verlangen</translation>
    </message>
    <message>
        <source>no token endpoint is known</source>
        <translation>kein Token-Endpunkt bekannt</translation>
    </message>
    <message>
        <source>gave up after %1 sign-ins in this session; the server keeps refusing the token</source>
        <translation>nach %1 Anmeldungen in dieser Sitzung aufgegeben; der Server lehnt das Token weiterhin ab</translation>
    </message>
    <message>
        <source>the authorization server &quot;%1&quot; is not an http(s) URL</source>
        <translation>der Autorisierungsserver „%1“ ist keine http(s)-URL</translation>
    </message>
    <message>
        <source>the authorization server does not support PKCE with S256, which MCP requires</source>
        <translation>der Autorisierungsserver unterstützt PKCE mit S256 nicht, das MCP verlangt</translation>
    </message>
    <message>
        <source>the authorization server&apos;s metadata names no authorization or token endpoint</source>
        <translation>die Metadaten des Autorisierungsservers nennen keinen Autorisierungs- oder Token-Endpunkt</translation>
    </message>
    <message>
        <source>could not open a loopback port for the sign-in: %1</source>
        <translation>für die Anmeldung konnte kein Loopback-Port geöffnet werden: %1</translation>
    </message>
    <message>
        <source>the authorization server offers no dynamic client registration; give a pre-registered client in the spec (auth.oauth.client_id)</source>
        <translation>der Autorisierungsserver bietet keine dynamische Client-Registrierung; geben Sie einen vorab registrierten Client in der Spezifikation an (auth.oauth.client_id)</translation>
    </message>
    <message>
        <source>client registration failed: %1</source>
        <translation>die Client-Registrierung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>no sign-in came back within %1 s</source>
        <translation>innerhalb von %1 s kam keine Anmeldung zurück</translation>
    </message>
    <message>
        <source>the sign-in answer carried the wrong state; it was ignored</source>
        <translation>die Antwort der Anmeldung hatte den falschen state-Wert; sie wurde ignoriert</translation>
    </message>
    <message>
        <source>the authorization server refused: %1 %2</source>
        <translation>der Autorisierungsserver hat abgelehnt: %1 %2</translation>
    </message>
    <message>
        <source>Signed in. You can close this window.</source>
        <translation>Angemeldet. Sie können dieses Fenster schließen.</translation>
    </message>
    <message>
        <source>the sign-in answer carried no code</source>
        <translation>die Antwort der Anmeldung enthielt keinen Code</translation>
    </message>
    <message>
        <source>the token request failed: %1</source>
        <translation>die Token-Anfrage ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>could not start the browser command &quot;%1&quot;</source>
        <translation>der Browser-Befehl „%1“ konnte nicht gestartet werden</translation>
    </message>
    <message>
        <source>the server&apos;s protected-resource metadata names another server (%1) as its resource; a server signs in only for itself (%2), so the sign-in is refused</source>
        <translation>die Protected-Resource-Metadaten des Servers nennen einen anderen Server (%1) als ihre Ressource; ein Server meldet nur für sich selbst an (%2), daher wird die Anmeldung abgelehnt</translation>
    </message>
</context>
<context>
    <name>Callscope::McpServerPanel</name>
    <message>
        <source>Add a remote server</source>
        <translation>Einen entfernten Server hinzufügen</translation>
    </message>
    <message>
        <source>docs</source>
        <translation>docs</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>OAuth sign-in</source>
        <translation>OAuth-Anmeldung</translation>
    </message>
    <message>
        <source>Bearer token from an environment variable</source>
        <translation>Bearer-Token aus einer Umgebungsvariablen</translation>
    </message>
    <message>
        <source>&amp;Add server</source>
        <translation>Server &amp;hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation>&amp;URL:</translation>
    </message>
    <message>
        <source>Sign-&amp;in:</source>
        <translation>&amp;Anmeldung:</translation>
    </message>
    <message>
        <source>Token &amp;variable:</source>
        <translation>Token-&amp;Variable:</translation>
    </message>
    <message>
        <source>Tools of a server</source>
        <translation>Werkzeuge eines Servers</translation>
    </message>
    <message>
        <source>&amp;Connect and list tools</source>
        <translation>Verbin&amp;den und Werkzeuge auflisten</translation>
    </message>
    <message>
        <source>Starts or connects to the server and lists its tools; a server that needs a sign-in opens the browser.</source>
        <translation>Startet den Server oder verbindet sich mit ihm und listet seine Werkzeuge auf; bei einem Server, der eine Anmeldung braucht, öffnet sich der Browser.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Werkzeug</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>Nur lesend</translation>
    </message>
    <message>
        <source>Destructive</source>
        <translation>Destruktiv</translation>
    </message>
    <message>
        <source>Idempotent</source>
        <translation>Idempotent</translation>
    </message>
    <message>
        <source>Open world</source>
        <translation>Offene Welt</translation>
    </message>
    <message>
        <source>Needs approval</source>
        <translation>Braucht Freigabe</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>Give the server a name.</source>
        <translation>Geben Sie dem Server einen Namen.</translation>
    </message>
    <message>
        <source>The URL must start with http:// or https://.</source>
        <translation>Die URL muss mit http:// oder https:// beginnen.</translation>
    </message>
    <message>
        <source>Name the environment variable that holds the token (letters, digits and _), not the token itself.</source>
        <translation>Nennen Sie die Umgebungsvariable, die das Token enthält (Buchstaben, Ziffern und _), nicht das Token selbst.</translation>
    </message>
    <message>
        <source>Added &quot;%1&quot;; connect to it to see its tools.</source>
        <translation>„%1“ wurde hinzugefügt; verbinden Sie sich damit, um seine Werkzeuge zu sehen.</translation>
    </message>
    <message>
        <source>Signing in: finish in the browser window that opened.</source>
        <translation>Anmeldung läuft: Schließen Sie sie im geöffneten Browserfenster ab.</translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s) on &quot;%1&quot;.</source>
        <translation>
            <numerusform>%n Werkzeug auf „%1“.</numerusform>
            <numerusform>%n Werkzeuge auf „%1“.</numerusform>
        </translation>
    </message>
    <message>
        <source>Connecting to &quot;%1&quot;…</source>
        <translation>Verbindung zu „%1“ wird hergestellt …</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
</context>
<context>
    <name>Callscope::McpToolkit</name>
    <message>
        <source>MCP server &quot;%1&quot; did not finish starting within %2 ms.</source>
        <translation>MCP-Server „%1“ war nicht innerhalb von %2 ms gestartet.</translation>
    </message>
    <message numerus="yes">
        <source>It printed %n line(s) that were not JSON-RPC; the first: %1</source>
        <translation>
            <numerusform>Er gab %n Zeile aus, die kein JSON-RPC war; die erste: %1</numerusform>
            <numerusform>Er gab %n Zeilen aus, die kein JSON-RPC waren; die erste: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; has no command.</source>
        <translation>MCP-Server „%1“ hat keinen Befehl.</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; could not start: its working directory &quot;%2&quot; does not exist.</source>
        <translation>MCP-Server „%1“ konnte nicht starten: Sein Arbeitsverzeichnis „%2“ existiert nicht.</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; could not start: program &quot;%2&quot; not found or not executable.</source>
        <translation>MCP-Server „%1“ konnte nicht starten: Programm „%2“ nicht gefunden oder nicht ausführbar.</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; could not start program &quot;%2&quot;: %3</source>
        <translation>MCP-Server „%1“ konnte Programm „%2“ nicht starten: %3</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; refused to initialize: %2</source>
        <translation>MCP-Server „%1“ hat die Initialisierung verweigert: %2</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; answered initialize without a protocol version.</source>
        <translation>MCP-Server „%1“ hat initialize ohne Protokollversion beantwortet.</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; could not list its tools: %2</source>
        <translation>MCP-Server „%1“ konnte seine Werkzeuge nicht auflisten: %2</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; does not offer the tool(s) %2; it lists: %3</source>
        <translation>MCP-Server „%1“ bietet das Werkzeug bzw. die Werkzeuge %2 nicht an; er nennt: %3</translation>
    </message>
    <message>
        <source>Its stderr ended with:</source>
        <translation>Seine Standardfehlerausgabe endete mit:</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; sent a reply larger than %2 bytes; it was dropped.</source>
        <translation>MCP-Server „%1“ hat eine Antwort größer als %2 Bytes gesendet; sie wurde verworfen.</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; crashed or was killed.</source>
        <translation>MCP-Server „%1“ ist abgestürzt oder wurde beendet.</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; exited with code %2.</source>
        <translation>MCP-Server „%1“ wurde mit Code %2 beendet.</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; was shut down.</source>
        <translation>MCP-Server „%1“ wurde heruntergefahren.</translation>
    </message>
    <message>
        <source>[an image (%1) that could not be decoded]</source>
        <translation>[an image (%1) that could not be decoded]</translation>
    </message>
    <message>
        <source>[image %1: %2, %3 bytes]</source>
        <translation>[image %1: %2, %3 bytes]</translation>
    </message>
    <message>
        <source>[audio: %1, about %2 bytes, not passed on]</source>
        <translation>[audio: %1, about %2 bytes, not passed on]</translation>
    </message>
    <message>
        <source>[resource link: %1 &lt;%2&gt;]</source>
        <translation>[resource link: %1 &lt;%2&gt;]</translation>
    </message>
    <message>
        <source>[resource &lt;%1&gt;]</source>
        <translation>[resource &lt;%1&gt;]</translation>
    </message>
    <message>
        <source>[resource &lt;%1&gt;: %2, binary, not passed on]</source>
        <translation>[resource &lt;%1&gt;: %2, binary, not passed on]</translation>
    </message>
    <message>
        <source>[content of type &quot;%1&quot;: %2]</source>
        <translation>[content of type &quot;%1&quot;: %2]</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; could not be sent its first request.</source>
        <translation>An MCP-Server „%1“ konnte die erste Anfrage nicht gesendet werden.</translation>
    </message>
    <message>
        <source>MCP server &quot;%1&quot; needs a bearer token from the environment variable %2, which is not set.</source>
        <translation>MCP-Server „%1“ braucht ein Bearer-Token aus der Umgebungsvariablen %2, die nicht gesetzt ist.</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; declares an outputSchema but its result has no structuredContent.</source>
        <translation>Werkzeug „%1“ deklariert ein outputSchema, aber sein Ergebnis hat kein structuredContent.</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; declares an outputSchema that is not a valid schema: %2</source>
        <translation>Werkzeug „%1“ deklariert ein outputSchema, das kein gültiges Schema ist: %2</translation>
    </message>
    <message>
        <source>Tool &quot;%1&quot; returned structuredContent that breaks its outputSchema at %2: %3</source>
        <translation>Werkzeug „%1“ lieferte structuredContent, das sein outputSchema bei %2 verletzt: %3</translation>
    </message>
</context>
<context>
    <name>Callscope::MockJob</name>
    <message>
        <source>Tool &quot;%1&quot; is no longer available.</source>
        <translation>Tool &quot;%1&quot; is no longer available.</translation>
    </message>
</context>
<context>
    <name>Callscope::NewExperimentDialog</name>
    <message>
        <source>not valid JSON at line %1, column %2: %3</source>
        <translation>kein gültiges JSON in Zeile %1, Spalte %2: %3</translation>
    </message>
    <message>
        <source>must be a JSON object such as {&quot;max_turns&quot;: 2}</source>
        <translation>muss ein JSON-Objekt sein, etwa {&quot;max_turns&quot;: 2}</translation>
    </message>
    <message>
        <source>New Experiment</source>
        <translation>Neues Experiment</translation>
    </message>
    <message>
        <source>for example planner-regression</source>
        <translation>zum Beispiel planner-regression</translation>
    </message>
    <message>
        <source>the spec file every variant starts from</source>
        <translation>die Spezifikationsdatei, von der jede Variante ausgeht</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <source>Choose the Spec</source>
        <translation>Spezifikation auswählen</translation>
    </message>
    <message>
        <source>Specs (*.json);;All files (*)</source>
        <translation>Spezifikationen (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>How many times each case runs in each variant (more repeats show flaky cases)</source>
        <translation>Wie oft jeder Fall in jeder Variante läuft (mehr Wiederholungen zeigen wackelige Fälle)</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Spec:</source>
        <translation>&amp;Spezifikation:</translation>
    </message>
    <message>
        <source>&amp;Repeat:</source>
        <translation>&amp;Wiederholungen:</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <source>A &amp;file of cases (.jsonl or .csv)</source>
        <translation>Eine &amp;Datei mit Fällen (.jsonl oder .csv)</translation>
    </message>
    <message>
        <source>Cases &amp;typed here</source>
        <translation>Hier &amp;eingegebene Fälle</translation>
    </message>
    <message>
        <source>cases.jsonl</source>
        <translation>cases.jsonl</translation>
    </message>
    <message>
        <source>Choose the Dataset</source>
        <translation>Datensatz auswählen</translation>
    </message>
    <message>
        <source>Datasets (*.jsonl *.csv);;All files (*)</source>
        <translation>Datensätze (*.jsonl *.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>Erwartet</translation>
    </message>
    <message>
        <source>Optional. JSON (such as {&quot;title&quot;: &quot;ok&quot;}) or plain text</source>
        <translation>Optional. JSON (etwa {&quot;title&quot;: &quot;ok&quot;}) oder reiner Text</translation>
    </message>
    <message>
        <source>Add Case</source>
        <translation>Fall hinzufügen</translation>
    </message>
    <message>
        <source>Remove Case</source>
        <translation>Fall entfernen</translation>
    </message>
    <message>
        <source>Variants</source>
        <translation>Varianten</translation>
    </message>
    <message>
        <source>Each variant is the spec with these fields replaced, such as {&quot;max_turns&quot;: 1} or {&quot;engine&quot;: {&quot;model&quot;: &quot;…&quot;}}.</source>
        <translation>Jede Variante ist die Spezifikation mit diesen ersetzten Feldern, etwa {&quot;max_turns&quot;: 1} oder {&quot;engine&quot;: {&quot;model&quot;: &quot;…&quot;}}.</translation>
    </message>
    <message>
        <source>Add Variant</source>
        <translation>Variante hinzufügen</translation>
    </message>
    <message>
        <source>Assertions</source>
        <translation>Zusicherungen</translation>
    </message>
    <message>
        <source>Checks every output must pass. A pointer such as /title picks a field of the output; &quot;&quot; is the whole output.</source>
        <translation>Prüfungen, die jede Ausgabe bestehen muss. Ein Pointer wie /title wählt ein Feld der Ausgabe; &quot;&quot; ist die ganze Ausgabe.</translation>
    </message>
    <message>
        <source>Add Assertion</source>
        <translation>Zusicherung hinzufügen</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>&amp;Create…</source>
        <translation>&amp;Anlegen …</translation>
    </message>
    <message>
        <source>Choose where to save the experiment file; it is checked before it is written</source>
        <translation>Wählen Sie, wo die Experimentdatei gespeichert wird; sie wird vor dem Schreiben geprüft</translation>
    </message>
    <message>
        <source>name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>The spec fields this variant changes, as a JSON object ({} changes nothing)</source>
        <translation>Die Felder der Spezifikation, die diese Variante ändert, als JSON-Objekt ({} ändert nichts)</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove this variant</source>
        <translation>Diese Variante entfernen</translation>
    </message>
    <message>
        <source>What the assertion checks</source>
        <translation>Was die Zusicherung prüft</translation>
    </message>
    <message>
        <source>The assertion&apos;s parameters, as a JSON object</source>
        <translation>Die Parameter der Zusicherung, als JSON-Objekt</translation>
    </message>
    <message>
        <source>Remove this assertion</source>
        <translation>Diese Zusicherung entfernen</translation>
    </message>
    <message>
        <source>Name: give the experiment a name</source>
        <translation>Name: Geben Sie dem Experiment einen Namen</translation>
    </message>
    <message>
        <source>Spec: choose the spec file the variants start from</source>
        <translation>Spezifikation: Wählen Sie die Spezifikationsdatei, von der die Varianten ausgehen</translation>
    </message>
    <message>
        <source>Dataset: choose a .jsonl or .csv file of cases</source>
        <translation>Datensatz: Wählen Sie eine .jsonl- oder .csv-Datei mit Fällen</translation>
    </message>
    <message>
        <source>Dataset: add at least one case (an id and an input)</source>
        <translation>Datensatz: Fügen Sie mindestens einen Fall hinzu (eine Id und eine Eingabe)</translation>
    </message>
    <message>
        <source>Variant %1 (%2)</source>
        <translation>Variante %1 (%2)</translation>
    </message>
    <message>
        <source>no name</source>
        <translation>ohne Namen</translation>
    </message>
    <message>
        <source>%1: give the variant a name</source>
        <translation>%1: Geben Sie der Variante einen Namen</translation>
    </message>
    <message>
        <source>%1: the overrides are %2</source>
        <translation>%1: die Ersetzungen sind %2</translation>
    </message>
    <message>
        <source>Assertion %1 (%2): the parameters are %3</source>
        <translation>Zusicherung %1 (%2): die Parameter sind %3</translation>
    </message>
    <message>
        <source>cannot write in %1: %2</source>
        <translation>in %1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>(the file)</source>
        <translation>(die Datei)</translation>
    </message>
    <message>
        <source>cannot write: %1</source>
        <translation>kann nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>Save the Experiment</source>
        <translation>Experiment speichern</translation>
    </message>
    <message>
        <source>Experiment files (*.json);;All files (*)</source>
        <translation>Experimentdateien (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>as in Preferences</source>
        <translation>wie in den Einstellungen</translation>
    </message>
    <message>
        <source>How many calls of this experiment may be in flight at once</source>
        <translation>Wie viele Aufrufe dieses Experiments gleichzeitig unterwegs sein dürfen</translation>
    </message>
    <message>
        <source>Calls at &amp;once:</source>
        <translation>Aufrufe &amp;gleichzeitig:</translation>
    </message>
    <message>
        <source>Direct calls</source>
        <translation>Direkte Aufrufe</translation>
    </message>
    <message>
        <source>Provider batch API (cheaper, answers within hours)</source>
        <translation>Anbieter-Batch-API (günstiger, Antworten binnen Stunden)</translation>
    </message>
    <message>
        <source>Direct calls answer at once. The providers&apos; batch APIs cost less but may take up to a day; the tool loop then runs in rounds.</source>
        <translation>Direkte Aufrufe antworten sofort. Die Batch-APIs der Anbieter kosten weniger, können aber bis zu einem Tag dauern; die Werkzeugschleife läuft dann in Durchgängen.</translation>
    </message>
    <message>
        <source>Send &amp;as:</source>
        <translation>Senden &amp;als:</translation>
    </message>
    <message>
        <source>Vars</source>
        <translation>Variablen</translation>
    </message>
    <message>
        <source>Optional. A JSON object such as {&quot;ticket&quot;: 7}; {{ticket}} in the input or the spec&apos;s prompt is replaced by its value</source>
        <translation>Optional. Ein JSON-Objekt wie {&quot;ticket&quot;: 7}; {{ticket}} in der Eingabe oder im Prompt der Spezifikation wird durch seinen Wert ersetzt</translation>
    </message>
    <message>
        <source>Case %1 (%2): the vars are %3</source>
        <translation>Fall %1 (%2): die Variablen sind %3</translation>
    </message>
</context>
<context>
    <name>Callscope::NoticeBar</name>
    <message>
        <source>Dismiss</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Dismiss message</source>
        <translation>Meldung schließen</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>Show what the server sent</source>
        <translation>Zeigen, was der Server gesendet hat</translation>
    </message>
    <message>
        <source>Message details</source>
        <translation>Details der Meldung</translation>
    </message>
</context>
<context>
    <name>Callscope::PartialOutputModel</name>
    <message>
        <source>streaming</source>
        <translation>wird gestreamt</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>vollständig</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>ungültig</translation>
    </message>
    <message numerus="yes">
        <source>%n field(s)</source>
        <translation>
            <numerusform>%n Feld</numerusform>
            <numerusform>%n Felder</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, %n invalid</source>
        <translation>
            <numerusform>%1, %n ungültig</numerusform>
            <numerusform>%1, %n ungültig</numerusform>
        </translation>
    </message>
    <message>
        <source>%1; stopped early: the answer could no longer match the schema</source>
        <translation>%1; vorzeitig angehalten: die Antwort konnte nicht mehr zum Schema passen</translation>
    </message>
    <message>
        <source>%1; streaming</source>
        <translation>%1; wird gestreamt</translation>
    </message>
    <message>
        <source>%1; the reply is complete</source>
        <translation>%1; die Antwort ist vollständig</translation>
    </message>
    <message>
        <source>%1; the answer does not match the schema</source>
        <translation>%1; die Antwort passt nicht zum Schema</translation>
    </message>
    <message>
        <source>%1 is invalid: %2</source>
        <translation>%1 ist ungültig: %2</translation>
    </message>
    <message>
        <source>The answer</source>
        <translation>Die Antwort</translation>
    </message>
    <message>
        <source>(the whole answer)</source>
        <translation>(die ganze Antwort)</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Value so far</source>
        <translation>Bisheriger Wert</translation>
    </message>
    <message>
        <source>Why it is invalid</source>
        <translation>Warum ungültig</translation>
    </message>
</context>
<context>
    <name>Callscope::Preflight</name>
    <message>
        <source>The base URL &quot;%1&quot; is not a web address: it must start with https:// (or http://) and name a host.</source>
        <translation>Die Basis-URL „%1“ ist keine Webadresse: Sie muss mit https:// (oder http://) beginnen und einen Host nennen.</translation>
    </message>
    <message>
        <source>relative to %1</source>
        <translation>relativ zu %1</translation>
    </message>
    <message>
        <source>on PATH</source>
        <translation>im PATH</translation>
    </message>
    <message>
        <source>The tool &quot;%1&quot; cannot start: its program &quot;%2&quot; was not found %3 (or is not executable). Install it, or fix tools[%4].command.</source>
        <translation>Das Werkzeug „%1“ kann nicht starten: Sein Programm „%2“ wurde %3 nicht gefunden (oder ist nicht ausführbar). Installieren Sie es oder korrigieren Sie tools[%4].command.</translation>
    </message>
    <message>
        <source>The MCP server &quot;%1&quot; cannot start: its program &quot;%2&quot; was not found %3 (or is not executable). Install it, or fix mcp_servers.%1.command.</source>
        <translation>Der MCP-Server „%1“ kann nicht starten: Sein Programm „%2“ wurde %3 nicht gefunden (oder ist nicht ausführbar). Installieren Sie es oder korrigieren Sie mcp_servers.%1.command.</translation>
    </message>
    <message>
        <source>The replay engine needs a recording: a recording file or a stored call id (Replay from in the Engine tab; &quot;replay&quot; of the spec&apos;s engine).</source>
        <translation>Die Replay-Engine braucht eine Aufzeichnung: eine Aufzeichnungsdatei oder die ID eines gespeicherten Aufrufs (Wiedergabe aus im Reiter Engine; „replay“ der Engine der Spezifikation).</translation>
    </message>
    <message>
        <source>The recording %1 does not exist (a recording named in the spec is found relative to the spec&apos;s folder).</source>
        <translation>Die Aufzeichnung %1 existiert nicht (eine in der Spezifikation genannte Aufzeichnung wird relativ zum Ordner der Spezifikation gesucht).</translation>
    </message>
    <message>
        <source>No model is set: name the model your provider lists (Model in the Engine tab; &quot;model&quot; of the spec&apos;s engine).</source>
        <translation>Kein Modell angegeben: Nennen Sie das Modell, das Ihr Anbieter auflistet (Modell im Reiter Engine; „model“ der Engine der Spezifikation).</translation>
    </message>
    <message>
        <source>An OpenAI-compatible engine needs the address of its server (Base URL in the Engine tab; &quot;base_url&quot; of the spec&apos;s engine).</source>
        <translation>Eine OpenAI-kompatible Engine braucht die Adresse ihres Servers (Basis-URL im Reiter Engine; „base_url“ der Engine der Spezifikation).</translation>
    </message>
    <message>
        <source>No key found: the environment variable %1, named as the key variable of the engine, is not set. Set it, or use an engine profile with a stored key.</source>
        <translation>Kein Schlüssel gefunden: Die Umgebungsvariable %1, als Schlüsselvariable der Engine angegeben, ist nicht gesetzt. Setzen Sie sie oder verwenden Sie ein Engine-Profil mit gespeichertem Schlüssel.</translation>
    </message>
    <message>
        <source>No key found for %1: name the environment variable that holds it (API key variable in the Engine tab; &quot;api_key_env&quot; of the spec&apos;s engine), or pick an engine profile with a stored key (Preferences, or callscope-cli engines add).</source>
        <translation>Kein Schlüssel für %1 gefunden: Nennen Sie die Umgebungsvariable, die ihn enthält (API-Schlüsselvariable im Reiter Engine; „api_key_env“ der Engine der Spezifikation), oder wählen Sie ein Engine-Profil mit gespeichertem Schlüssel (Einstellungen oder callscope-cli engines add).</translation>
    </message>
</context>
<context>
    <name>Callscope::ProfileListModel</name>
    <message>
        <source>A key is stored in the keychain.</source>
        <translation>Ein Schlüssel ist im Schlüsselbund gespeichert.</translation>
    </message>
    <message>
        <source>No key stored.</source>
        <translation>Kein Schlüssel gespeichert.</translation>
    </message>
    <message>
        <source>The keychain cannot be asked.</source>
        <translation>Der Schlüsselbund kann nicht abgefragt werden.</translation>
    </message>
    <message>
        <source>Asking the keychain…</source>
        <translation>Schlüsselbund wird abgefragt …</translation>
    </message>
</context>
<context>
    <name>Callscope::ProfileStore</name>
    <message>
        <source>cannot write the settings file %1</source>
        <translation>die Einstellungsdatei %1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>an engine profile named &apos;%1&apos; already exists</source>
        <translation>ein Engine-Profil namens „%1“ existiert bereits</translation>
    </message>
    <message>
        <source>no engine profile named &apos;%1&apos;</source>
        <translation>kein Engine-Profil namens „%1“</translation>
    </message>
    <message>
        <source>cannot rename engine &apos;%1&apos;: its key could not be read: %2</source>
        <translation>Engine „%1“ kann nicht umbenannt werden: Ihr Schlüssel konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>cannot rename engine &apos;%1&apos;: its key could not be stored under the new name: %2</source>
        <translation>Engine „%1“ kann nicht umbenannt werden: Ihr Schlüssel konnte nicht unter dem neuen Namen gespeichert werden: %2</translation>
    </message>
    <message>
        <source>the engine was renamed, but the key under its old name could not be deleted: %1</source>
        <translation>die Engine wurde umbenannt, aber der Schlüssel unter ihrem alten Namen konnte nicht gelöscht werden: %1</translation>
    </message>
    <message>
        <source>the engine &apos;%1&apos; was removed, but its key could not be deleted from the keychain: %2</source>
        <translation>die Engine „%1“ wurde entfernt, aber ihr Schlüssel konnte nicht aus dem Schlüsselbund gelöscht werden: %2</translation>
    </message>
</context>
<context>
    <name>Callscope::RawExchangeDialog</name>
    <message>
        <source>Turn %1: raw request and response</source>
        <translation>Runde %1: rohe Anfrage und Antwort</translation>
    </message>
</context>
<context>
    <name>Callscope::RawExchangeView</name>
    <message>
        <source>Raw request body</source>
        <translation>Roher Anfrageinhalt</translation>
    </message>
    <message>
        <source>Raw response body</source>
        <translation>Roher Antwortinhalt</translation>
    </message>
    <message>
        <source>&amp;Request</source>
        <translation>&amp;Anfrage</translation>
    </message>
    <message>
        <source>R&amp;esponse</source>
        <translation>Ant&amp;wort</translation>
    </message>
    <message>
        <source>The response shows the first %1 of the %2 received; the rest was decoded as it arrived and not kept.</source>
        <translation>Die Antwort zeigt die ersten %1 der empfangenen %2; der Rest wurde beim Eintreffen dekodiert und nicht behalten.</translation>
    </message>
    <message>
        <source>The request shows the first %1 of its %2; the rest was not kept.</source>
        <translation>Die Anfrage zeigt die ersten %1 ihrer %2; der Rest wurde nicht behalten.</translation>
    </message>
</context>
<context>
    <name>Callscope::RecoveryFile</name>
    <message>
        <source>cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
</context>
<context>
    <name>Callscope::ReplayModelClient</name>
    <message>
        <source>the recording (%1) holds %2 model replies and the run asked for reply %3: the replayed call no longer fits its recording</source>
        <translation>die Aufzeichnung (%1) enthält %2 Modellantworten und der Lauf fragte nach Antwort %3: der wiedergegebene Aufruf passt nicht mehr zu seiner Aufzeichnung</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>Wiedergabe</translation>
    </message>
</context>
<context>
    <name>Callscope::ReviewQueue</name>
    <message>
        <source>(cut here: the rest is in the call&apos;s own tab)</source>
        <translation>(hier gekürzt: der Rest steht im eigenen Tab des Aufrufs)</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>Bestanden</translation>
    </message>
    <message>
        <source>Fail</source>
        <translation>Durchgefallen</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Übersprungen</translation>
    </message>
    <message>
        <source>Review queue</source>
        <translation>Prüfwarteschlange</translation>
    </message>
    <message>
        <source>Review: %1</source>
        <translation>Prüfen: %1</translation>
    </message>
    <message>
        <source>Vars:</source>
        <translation>Variablen:</translation>
    </message>
    <message>
        <source>Expected:</source>
        <translation>Erwartet:</translation>
    </message>
    <message>
        <source>Change Name…</source>
        <translation>Namen ändern…</translation>
    </message>
    <message>
        <source>The name stored with your labels (kept in the settings)</source>
        <translation>Der Name, der mit Ihren Bewertungen gespeichert wird (in den Einstellungen)</translation>
    </message>
    <message>
        <source>Your Name</source>
        <translation>Ihr Name</translation>
    </message>
    <message>
        <source>The name stored with your labels:</source>
        <translation>Der Name, der mit Ihren Bewertungen gespeichert wird:</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Fall</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>Transcript</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>A note on this output (Enter keeps it, Esc drops it)</source>
        <translation>Eine Notiz zu dieser Ausgabe (Eingabe behält sie, Esc verwirft sie)</translation>
    </message>
    <message>
        <source>P pass · F fail · 1–5 score · N note · S skip · U undo · Space next without a label · ← → previous / next · Esc close</source>
        <translation>P bestanden · F durchgefallen · 1–5 Punkte · N Notiz · S überspringen · U rückgängig · Leertaste weiter ohne Bewertung · ← → vorige / nächste · Esc schließen</translation>
    </message>
    <message>
        <source>Labelling as %1</source>
        <translation>Bewertung als %1</translation>
    </message>
    <message>
        <source>(no output: the call ended as %1)</source>
        <translation>(keine Ausgabe: der Aufruf endete als %1)</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
    <message>
        <source>(the call could not be read: %1)</source>
        <translation>(der Aufruf konnte nicht gelesen werden: %1)</translation>
    </message>
    <message>
        <source>Nothing to review: no run of this experiment has a call yet.</source>
        <translation>Nichts zu prüfen: noch kein Lauf dieses Experiments hat einen Aufruf.</translation>
    </message>
    <message>
        <source>Run %1 of %2 — case %3 · variant %4 · repeat %5</source>
        <translation>Lauf %1 von %2 — Fall %3 · Variante %4 · Wiederholung %5</translation>
    </message>
    <message>
        <source>Reading the call…</source>
        <translation>Aufruf wird gelesen…</translation>
    </message>
    <message>
        <source>Your label: %1</source>
        <translation>Ihre Bewertung: %1</translation>
    </message>
    <message>
        <source>score %1 of 5</source>
        <translation>%1 von 5 Punkten</translation>
    </message>
    <message>
        <source>note: %1</source>
        <translation>Notiz: %1</translation>
    </message>
    <message>
        <source>Not labelled yet: P pass, F fail, S skip</source>
        <translation>Noch nicht bewertet: P bestanden, F durchgefallen, S überspringen</translation>
    </message>
    <message>
        <source>score %1 of 5 (kept with your verdict)</source>
        <translation>%1 von 5 Punkten (wird mit Ihrem Urteil gespeichert)</translation>
    </message>
    <message>
        <source>note: %1 (kept with your verdict)</source>
        <translation>Notiz: %1 (wird mit Ihrem Urteil gespeichert)</translation>
    </message>
    <message>
        <source>The checks&apos; verdicts (the judge&apos;s too) are hidden until you label this output, so they do not sway you.</source>
        <translation>Die Urteile der Prüfungen (auch das des Richters) bleiben verborgen, bis Sie diese Ausgabe bewertet haben, damit sie Sie nicht beeinflussen.</translation>
    </message>
    <message>
        <source>✓ %1 passed</source>
        <translation>✓ %1 bestanden</translation>
    </message>
    <message>
        <source>✗ %1 failed</source>
        <translation>✗ %1 durchgefallen</translation>
    </message>
    <message>
        <source>✓ The judge %1 passed it</source>
        <translation>✓ Der Richter %1 hat es bestehen lassen</translation>
    </message>
    <message>
        <source>✗ The judge %1 failed it</source>
        <translation>✗ Der Richter %1 hat es durchfallen lassen</translation>
    </message>
    <message>
        <source>This run has no checks.</source>
        <translation>Dieser Lauf hat keine Prüfungen.</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n run(s) labelled</source>
        <translation>
            <numerusform>%1 von %n Lauf bewertet</numerusform>
            <numerusform>%1 von %n Läufen bewertet</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n skipped</source>
        <translation>
            <numerusform>%n übersprungen</numerusform>
            <numerusform>%n übersprungen</numerusform>
        </translation>
    </message>
    <message>
        <source>Every run has your label.</source>
        <translation>Jeder Lauf hat Ihre Bewertung.</translation>
    </message>
    <message>
        <source>The label could not be stored: %1</source>
        <translation>Die Bewertung konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>the history is not open</source>
        <translation>der Verlauf ist nicht geöffnet</translation>
    </message>
    <message>
        <source>The label could not be taken back: %1</source>
        <translation>Die Bewertung konnte nicht zurückgenommen werden: %1</translation>
    </message>
    <message>
        <source>Nothing to undo.</source>
        <translation>Nichts rückgängig zu machen.</translation>
    </message>
</context>
<context>
    <name>Callscope::RevisionTreeModel</name>
    <message>
        <source>original</source>
        <translation>Original</translation>
    </message>
    <message>
        <source>revision</source>
        <translation>Revision</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>Wiedergabe</translation>
    </message>
    <message>
        <source>call %1 not found</source>
        <translation>Aufruf %1 nicht gefunden</translation>
    </message>
    <message>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Aufruf</translation>
    </message>
    <message>
        <source>Made by</source>
        <translation>Erstellt von</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Begonnen</translation>
    </message>
</context>
<context>
    <name>Callscope::RevisionTreeWidget</name>
    <message>
        <source>Revise…</source>
        <translation>Überarbeiten …</translation>
    </message>
    <message>
        <source>Replay on another engine…</source>
        <translation>Auf einer anderen Engine wiedergeben …</translation>
    </message>
    <message>
        <source>Replay with current spec</source>
        <translation>Mit der aktuellen Spezifikation wiedergeben</translation>
    </message>
    <message>
        <source>Diff with parent</source>
        <translation>Unterschied zum übergeordneten Aufruf</translation>
    </message>
    <message>
        <source>Context budget</source>
        <translation>Kontextbudget</translation>
    </message>
    <message>
        <source>Export tree…</source>
        <translation>Baum exportieren …</translation>
    </message>
    <message>
        <source>Open a spec in the editor first.</source>
        <translation>Öffnen Sie zuerst eine Spezifikation im Editor.</translation>
    </message>
    <message>
        <source>Call %1 cannot be shown: %2</source>
        <translation>Aufruf %1 kann nicht angezeigt werden: %2</translation>
    </message>
    <message>
        <source>Re-run the selected call&apos;s input with the spec open in the editor (%1).</source>
        <translation>Die Eingabe des ausgewählten Aufrufs mit der im Editor geöffneten Spezifikation (%1) erneut ausführen.</translation>
    </message>
    <message>
        <source>Runs need the history database.</source>
        <translation>Läufe brauchen die Verlaufsdatenbank.</translation>
    </message>
    <message>
        <source>Another call is running; wait for it to finish.</source>
        <translation>Ein anderer Aufruf läuft; warten Sie, bis er fertig ist.</translation>
    </message>
    <message>
        <source>Select a call first.</source>
        <translation>Wählen Sie zuerst einen Aufruf aus.</translation>
    </message>
    <message>
        <source>A revision needs a correction.</source>
        <translation>Eine Revision braucht eine Korrektur.</translation>
    </message>
    <message>
        <source>Revising call %1…</source>
        <translation>Aufruf %1 wird überarbeitet …</translation>
    </message>
    <message>
        <source>Call %1 has no usable spec stored.</source>
        <translation>Für Aufruf %1 ist keine verwendbare Spezifikation gespeichert.</translation>
    </message>
    <message>
        <source>Replaying call %1 on %2…</source>
        <translation>Aufruf %1 wird auf %2 wiedergegeben …</translation>
    </message>
    <message>
        <source>Replaying call %1 with the current spec…</source>
        <translation>Aufruf %1 wird mit der aktuellen Spezifikation wiedergegeben …</translation>
    </message>
    <message>
        <source>Revise call %1</source>
        <translation>Aufruf %1 überarbeiten</translation>
    </message>
    <message>
        <source>What should the model do differently?</source>
        <translation>Was soll das Modell anders machen?</translation>
    </message>
    <message>
        <source>Revise</source>
        <translation>Überarbeiten</translation>
    </message>
    <message>
        <source>Correction sent after the call&apos;s conversation:</source>
        <translation>Korrektur, die nach dem Gesprächsverlauf des Aufrufs gesendet wird:</translation>
    </message>
    <message>
        <source>The run was not stored: %1</source>
        <translation>Der Lauf wurde nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Call %1 finished: %2.</source>
        <translation>Aufruf %1 beendet: %2.</translation>
    </message>
    <message>
        <source>Call %1 ran on the replay engine: its recording would answer the same whatever the correction says. Pick a live engine for the revision.</source>
        <translation>Aufruf %1 lief auf der Replay-Engine: Ihre Aufzeichnung antwortet gleich, was auch immer die Korrektur sagt. Wählen Sie für die Revision eine echte Engine.</translation>
    </message>
    <message>
        <source>Revise call %1 on a live engine</source>
        <translation>Aufruf %1 auf einer echten Engine überarbeiten</translation>
    </message>
    <message>
        <source>Revise There</source>
        <translation>Dort überarbeiten</translation>
    </message>
    <message>
        <source>The revision needs a live engine, not the replay engine.</source>
        <translation>Die Revision braucht eine echte Engine, nicht die Replay-Engine.</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Nothing was run: the call&apos;s spec is not trusted.</source>
        <translation>Nichts wurde ausgeführt: der Spezifikation des Aufrufs wird nicht vertraut.</translation>
    </message>
    <message>
        <source>Reading call %1…</source>
        <translation>Aufruf %1 wird gelesen…</translation>
    </message>
    <message>
        <source>Call %1 could not be read: %2</source>
        <translation>Aufruf %1 konnte nicht gelesen werden: %2</translation>
    </message>
</context>
<context>
    <name>Callscope::RunLock</name>
    <message>
        <source>in use by %1 (process %2 on %3)</source>
        <translation>belegt von %1 (Prozess %2 auf %3)</translation>
    </message>
    <message>
        <source>cannot make the lock file %1</source>
        <translation>die Sperrdatei %1 kann nicht angelegt werden</translation>
    </message>
</context>
<context>
    <name>Callscope::RunPanel</name>
    <message>
        <source>%1
(not a JSON object: %2)</source>
        <translation>%1
(kein JSON-Objekt: %2)</translation>
    </message>
    <message>
        <source>Run panel</source>
        <translation>Ausführungsbereich</translation>
    </message>
    <message>
        <source>Input text</source>
        <translation>Eingabetext</translation>
    </message>
    <message>
        <source>The user&apos;s input for this call</source>
        <translation>Die Eingabe des Benutzers für diesen Aufruf</translation>
    </message>
    <message>
        <source>Attachments</source>
        <translation>Anhänge</translation>
    </message>
    <message>
        <source>Run status</source>
        <translation>Laufstatus</translation>
    </message>
    <message>
        <source>Attempts and token usage</source>
        <translation>Versuche und Token-Verbrauch</translation>
    </message>
    <message>
        <source>Selected transcript entry</source>
        <translation>Ausgewählter Transkripteintrag</translation>
    </message>
    <message>
        <source>Select an entry to see all of it</source>
        <translation>Wählen Sie einen Eintrag aus, um ihn vollständig zu sehen</translation>
    </message>
    <message>
        <source>Paused at a breakpoint</source>
        <translation>An einem Haltepunkt angehalten</translation>
    </message>
    <message>
        <source>Pending tool arguments</source>
        <translation>Ausstehende Werkzeugargumente</translation>
    </message>
    <message>
        <source>Pending tool result</source>
        <translation>Ausstehendes Werkzeugergebnis</translation>
    </message>
    <message>
        <source>The result is an error</source>
        <translation>Das Ergebnis ist ein Fehler</translation>
    </message>
    <message>
        <source>What is pending</source>
        <translation>Was aussteht</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>Erlaubt</translation>
    </message>
    <message>
        <source>%1 runs as the model asked</source>
        <translation>%1 läuft so, wie das Modell es verlangt hat</translation>
    </message>
    <message>
        <source> (always allowed for the rest of this run)</source>
        <translation> (für den Rest dieses Laufs immer erlaubt)</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>No reason given</source>
        <translation>Kein Grund angegeben</translation>
    </message>
    <message>
        <source>Run on another engine</source>
        <translation>Auf einer anderen Engine ausführen</translation>
    </message>
    <message>
        <source>Engine profile</source>
        <translation>Engine-Profil</translation>
    </message>
    <message>
        <source>Engine type</source>
        <translation>Engine-Typ</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>Basis-URL</translation>
    </message>
    <message>
        <source>the provider&apos;s public endpoint</source>
        <translation>der öffentliche Endpunkt des Anbieters</translation>
    </message>
    <message>
        <source>API key environment variable</source>
        <translation>Umgebungsvariable für den API-Schlüssel</translation>
    </message>
    <message>
        <source>Run &amp;There</source>
        <translation>&amp;Dort ausführen</translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation>&amp;Profil:</translation>
    </message>
    <message>
        <source>or engine t&amp;ype:</source>
        <translation>oder Engine-T&amp;yp:</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <source>Base &amp;URL:</source>
        <translation>Basis-&amp;URL:</translation>
    </message>
    <message>
        <source>API &amp;key variable:</source>
        <translation>Variable für den API-&amp;Schlüssel:</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>S&amp;tep</source>
        <translation>&amp;Schritt</translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>St&amp;op</source>
        <translation>Sto&amp;ppen</translation>
    </message>
    <message>
        <source>Raw Request/&amp;Response…</source>
        <translation>Rohe Anfrage/Ant&amp;wort …</translation>
    </message>
    <message>
        <source>&amp;Attach Files…</source>
        <translation>Dateien an&amp;hängen …</translation>
    </message>
    <message>
        <source>Remove Attachment</source>
        <translation>Anhang entfernen</translation>
    </message>
    <message>
        <source>Before &amp;request</source>
        <translation>Vor der &amp;Anfrage</translation>
    </message>
    <message>
        <source>After re&amp;ply</source>
        <translation>Nach der Antw&amp;ort</translation>
    </message>
    <message>
        <source>Before &amp;tool</source>
        <translation>Vor dem &amp;Werkzeug</translation>
    </message>
    <message>
        <source>After tool res&amp;ult</source>
        <translation>Nach dem Werkzeuger&amp;gebnis</translation>
    </message>
    <message>
        <source>On &amp;validation failure</source>
        <translation>Bei fehlgeschlagener &amp;Validierung</translation>
    </message>
    <message>
        <source>Pause %1 (%2)</source>
        <translation>Anhalten %1 (%2)</translation>
    </message>
    <message>
        <source>There is no spec to run.</source>
        <translation>Es gibt keine Spezifikation zum Ausführen.</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>Systemprompt</translation>
    </message>
    <message>
        <source>
[attachment: %1, %2, %3]</source>
        <translation>
[Anhang: %1, %2, %3]</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>Tool call: %1 (%2)</source>
        <translation>Werkzeugaufruf: %1 (%2)</translation>
    </message>
    <message>
        <source>Result of %1 (%2)</source>
        <translation>Ergebnis von %1 (%2)</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Refusal</source>
        <translation>Ablehnung</translation>
    </message>
    <message>
        <source>Cut off</source>
        <translation>Abgeschnitten</translation>
    </message>
    <message>
        <source>The reply reached the output limit (%1).</source>
        <translation>Die Antwort hat die Ausgabegrenze erreicht (%1).</translation>
    </message>
    <message>
        <source>%1 (%2) needs your approval</source>
        <translation>%1 (%2) braucht Ihre Freigabe</translation>
    </message>
    <message>
        <source>Output failed validation</source>
        <translation>Die Ausgabe hat die Validierung nicht bestanden</translation>
    </message>
    <message>
        <source>Correction sent</source>
        <translation>Korrektur gesendet</translation>
    </message>
    <message>
        <source>Retry %1 in %2 ms</source>
        <translation>Wiederholung %1 in %2 ms</translation>
    </message>
    <message>
        <source>After the reply of turn %1 (finish: %2).</source>
        <translation>Nach der Antwort von Runde %1 (Ende: %2).</translation>
    </message>
    <message>
        <source>
→ %1(%2)</source>
        <translation>
→ %1(%2)</translation>
    </message>
    <message>
        <source>Before the tool &quot;%1&quot; runs (call %2). Edit its arguments, then continue.</source>
        <translation>Bevor das Werkzeug „%1“ läuft (Aufruf %2). Bearbeiten Sie seine Argumente und fahren Sie dann fort.</translation>
    </message>
    <message>
        <source>After the result of &quot;%1&quot; (call %2). Edit it before the model sees it, then continue.</source>
        <translation>Nach dem Ergebnis von „%1“ (Aufruf %2). Bearbeiten Sie es, bevor das Modell es sieht, und fahren Sie dann fort.</translation>
    </message>
    <message>
        <source>The submitted output failed validation; the errors go back to the model.</source>
        <translation>Die gesendete Ausgabe hat die Validierung nicht bestanden; die Fehler gehen an das Modell zurück.</translation>
    </message>
    <message>
        <source>Validated result</source>
        <translation>Validiertes Ergebnis</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Turn limit reached</source>
        <translation>Rundengrenze erreicht</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The call was not stored: %1</source>
        <translation>Der Aufruf wurde nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>No raw request or response for this entry yet.</source>
        <translation>Für diesen Eintrag gibt es noch keine rohe Anfrage oder Antwort.</translation>
    </message>
    <message>
        <source>Running · %1</source>
        <translation>Läuft · %1</translation>
    </message>
    <message>
        <source> · call %1</source>
        <translation> · Aufruf %1</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>in %1 / out %2</source>
        <translation>ein %1 / aus %2</translation>
    </message>
    <message>
        <source> (cached %1)</source>
        <translation> (Cache %1)</translation>
    </message>
    <message>
        <source> (reasoning %1)</source>
        <translation> (Reasoning %1)</translation>
    </message>
    <message>
        <source>Turns %1 · attempts %2 · last turn %3 · total %4</source>
        <translation>Runden %1 · Versuche %2 · letzte Runde %3 · gesamt %4</translation>
    </message>
    <message>
        <source>Attach Files</source>
        <translation>Dateien anhängen</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle Dateien (*)</translation>
    </message>
    <message>
        <source>(none: use the type below)</source>
        <translation>(keins: den Typ unten verwenden)</translation>
    </message>
    <message>
        <source>Approved with your edited arguments</source>
        <translation>Mit Ihren bearbeiteten Argumenten freigegeben</translation>
    </message>
    <message>
        <source>%1 runs with the arguments you edited</source>
        <translation>%1 läuft mit den Argumenten, die Sie bearbeitet haben</translation>
    </message>
    <message>
        <source>Tool call: %1 (%2) · arguments edited by you</source>
        <translation>Werkzeugaufruf: %1 (%2) · Argumente von Ihnen bearbeitet</translation>
    </message>
    <message>
        <source>Runs with (edited by you):
%1

The model asked for:
%2</source>
        <translation>Läuft mit (von Ihnen bearbeitet):
%1

Das Modell wollte:
%2</translation>
    </message>
    <message>
        <source>Nothing was sent: the engine is not ready.
%1
Fix it in the Engine tab of the form, then run again.</source>
        <translation>Nichts wurde gesendet: Die Engine ist nicht bereit.
%1
Beheben Sie es im Engine-Tab des Formulars und starten Sie dann erneut.</translation>
    </message>
    <message>
        <source>Replay: the replies come from the recording %1, not from a model. Edits to the prompt, the schema or the tools do not change what it answers; pick a live engine to see their effect.</source>
        <translation>Replay: Die Antworten kommen aus der Aufzeichnung %1, nicht von einem Modell. Änderungen an Prompt, Schema oder Werkzeugen ändern nicht, was sie antwortet; wählen Sie eine echte Engine, um ihre Wirkung zu sehen.</translation>
    </message>
    <message>
        <source>Paused %1</source>
        <translation>Angehalten %1</translation>
    </message>
    <message>
        <source>Arguments edited by you</source>
        <translation>Argumente von Ihnen bearbeitet</translation>
    </message>
    <message>
        <source>%1 (%2) runs with the arguments you edited, not the model&apos;s</source>
        <translation>%1 (%2) läuft mit den Argumenten, die Sie bearbeitet haben, nicht mit denen des Modells</translation>
    </message>
    <message>
        <source>The model refused: %1. You can run the same input on another engine below.</source>
        <translation>Das Modell hat abgelehnt: %1. Sie können dieselbe Eingabe unten auf einer anderen Engine ausführen.</translation>
    </message>
    <message>
        <source>The call failed (%1): %2</source>
        <translation>Der Aufruf ist fehlgeschlagen (%1): %2</translation>
    </message>
    <message>
        <source>Nothing was sent: the engine is not ready.
%1</source>
        <translation>Nichts wurde gesendet: Die Engine ist nicht bereit.
%1</translation>
    </message>
    <message>
        <source>Run (Ctrl+R) sends the input to the engine. The conversation appears here as it happens: the model&apos;s replies, each tool call and its result, corrections, retries, and the checked answer. Select an entry to read all of it.

New here? File &gt; Open Sample opens a spec that runs offline, with no key.</source>
        <translation>Ausführen (Strg+R) sendet die Eingabe an die Engine. Das Gespräch erscheint hier, während es geschieht: die Antworten des Modells, jeder Werkzeugaufruf und sein Ergebnis, Korrekturen, Wiederholungen und die geprüfte Antwort. Wählen Sie einen Eintrag aus, um ihn vollständig zu lesen.

Neu hier? Datei &gt; Beispiel öffnen öffnet eine Spezifikation, die offline und ohne Schlüssel läuft.</translation>
    </message>
    <message>
        <source>Goes to the model (edited by you):
%1

The tool returned%2:
%3</source>
        <translation>Geht an das Modell (von Ihnen bearbeitet):
%1

Das Werkzeug lieferte%2:
%3</translation>
    </message>
    <message>
        <source> (an error)</source>
        <translation> (ein Fehler)</translation>
    </message>
    <message>
        <source>Nothing was sent: a tool cannot start.
%1
Fix it in the Tools tab of the form, then run again.</source>
        <translation>Nichts wurde gesendet: Ein Werkzeug kann nicht starten.
%1
Beheben Sie es im Werkzeuge-Tab des Formulars und starten Sie dann erneut.</translation>
    </message>
    <message>
        <source>Result of %1 (%2) · edited by you</source>
        <translation>Ergebnis von %1 (%2) · von Ihnen bearbeitet</translation>
    </message>
    <message>
        <source>Pause the run</source>
        <translation>Die Ausführung anhalten</translation>
    </message>
    <message>
        <source>Breakpoints</source>
        <translation>Haltepunkte</translation>
    </message>
    <message>
        <source>Timeline of the run</source>
        <translation>Zeitleiste der Ausführung</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Go on and pause again at the next point (F10)</source>
        <translation>Weitermachen und beim nächsten Punkt wieder anhalten (F10)</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Error result typed by you</source>
        <translation>Von Ihnen eingegebenes Fehlerergebnis</translation>
    </message>
    <message>
        <source>Result typed by you</source>
        <translation>Von Ihnen eingegebenes Ergebnis</translation>
    </message>
    <message>
        <source>%1 (%2) gets the text you typed</source>
        <translation>%1 (%2) erhält den Text, den Sie eingegeben haben</translation>
    </message>
    <message>
        <source>Breakpoints (%1)</source>
        <translation>Haltepunkte (%1)</translation>
    </message>
    <message>
        <source>Pause the run at chosen points: none chosen</source>
        <translation>Die Ausführung an gewählten Punkten anhalten: keiner gewählt</translation>
    </message>
    <message>
        <source>The run pauses %1</source>
        <translation>Die Ausführung hält %1</translation>
    </message>
    <message>
        <source>Not answered</source>
        <translation>Nicht beantwortet</translation>
    </message>
    <message>
        <source>%1 (%2) was still waiting for you when the run ended</source>
        <translation>%1 (%2) wartete noch auf Sie, als die Ausführung endete</translation>
    </message>
    <message>
        <source>%1 needs your approval</source>
        <translation>%1 braucht Ihre Zustimmung</translation>
    </message>
    <message>
        <source>%1 needs its result from you</source>
        <translation>%1 braucht sein Ergebnis von Ihnen</translation>
    </message>
    <message>
        <source>Waiting for your approval</source>
        <translation>Wartet auf Ihre Zustimmung</translation>
    </message>
    <message>
        <source>Waiting for a result from you</source>
        <translation>Wartet auf ein Ergebnis von Ihnen</translation>
    </message>
    <message>
        <source>%1 (%2) is a manual tool: you give its result</source>
        <translation>%1 (%2) ist ein manuelles Werkzeug: Sie geben sein Ergebnis</translation>
    </message>
    <message>
        <source>The arguments are not valid JSON: %1 (at offset %2)</source>
        <translation>Die Argumente sind kein gültiges JSON: %1 (bei Position %2)</translation>
    </message>
    <message>
        <source>The arguments must be a JSON object.</source>
        <translation>Die Argumente müssen ein JSON-Objekt sein.</translation>
    </message>
    <message>
        <source>%1 (%2) with your arguments needs your approval</source>
        <translation>%1 (%2) mit Ihren Argumenten braucht Ihre Freigabe</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Kann nicht ausgeführt werden: %1</translation>
    </message>
    <message>
        <source>Nothing was run or sent: the file is not trusted.</source>
        <translation>Nichts wurde ausgeführt oder gesendet: der Datei wird nicht vertraut.</translation>
    </message>
    <message>
        <source>Nothing was sent: the profile&apos;s key stays with its own address.</source>
        <translation>Nichts wurde gesendet: der Schlüssel des Profils bleibt bei seiner eigenen Adresse.</translation>
    </message>
    <message>
        <source>The answer could not be remembered: %1</source>
        <translation>Die Antwort konnte nicht gespeichert werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>[%n more bytes not kept]</source>
        <translation>
            <numerusform>[%n weiteres Byte nicht aufbewahrt]</numerusform>
            <numerusform>[%n weitere Bytes nicht aufbewahrt]</numerusform>
        </translation>
    </message>
    <message>
        <source>Before the request of turn %1: %2, %3 offered. The system prompt:</source>
        <translation>Vor der Anfrage von Runde %1: %2, %3 angeboten. Der Systemprompt:</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n Nachricht</numerusform>
            <numerusform>%n Nachrichten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s)</source>
        <translation>
            <numerusform>%n Werkzeug</numerusform>
            <numerusform>%n Werkzeuge</numerusform>
        </translation>
    </message>
    <message>
        <source>The call failed: %1</source>
        <translation>Der Aufruf ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Waiting for your answer · nothing runs until you trust the file or cancel</source>
        <translation>Wartet auf Ihre Antwort · nichts läuft, bis Sie der Datei vertrauen oder abbrechen</translation>
    </message>
    <message>
        <source>Checking the spec before it runs</source>
        <translation>Die Spezifikation wird vor dem Lauf geprüft</translation>
    </message>
    <message>
        <source> (cache written %1)</source>
        <translation> (Cache geschrieben %1)</translation>
    </message>
    <message>
        <source>Nothing was sent.
%1</source>
        <translation>Nichts wurde gesendet.
%1</translation>
    </message>
    <message>
        <source>Answer so far</source>
        <translation>Antwort bisher</translation>
    </message>
    <message>
        <source>Fields of the answer as it streams</source>
        <translation>Felder der Antwort während des Streamens</translation>
    </message>
    <message>
        <source>Stopped early</source>
        <translation>Vorzeitig angehalten</translation>
    </message>
    <message numerus="yes">
        <source>The answer could no longer match the schema at %1: %2. The reply was cut off after %n byte(s), and the correction goes to the model.</source>
        <translation>
            <numerusform>Die Antwort konnte bei %1 nicht mehr zum Schema passen: %2. Die Antwort wurde nach %n Byte abgebrochen, und die Korrektur geht an das Modell.</numerusform>
            <numerusform>Die Antwort konnte bei %1 nicht mehr zum Schema passen: %2. Die Antwort wurde nach %n Bytes abgebrochen, und die Korrektur geht an das Modell.</numerusform>
        </translation>
    </message>
    <message>
        <source>the whole answer</source>
        <translation>die ganze Antwort</translation>
    </message>
    <message>
        <source>Nothing was sent: %1</source>
        <translation>Nichts wurde gesendet: %1</translation>
    </message>
</context>
<context>
    <name>Callscope::Runner</name>
    <message>
        <source>stopped by the user</source>
        <translation>vom Benutzer angehalten</translation>
    </message>
    <message>
        <source>no engine to run the call on</source>
        <translation>keine Engine, auf der der Aufruf laufen kann</translation>
    </message>
    <message>
        <source>the response schema is invalid: %1</source>
        <translation>das Antwortschema ist ungültig: %1</translation>
    </message>
    <message>
        <source>a toolkit could not start: %1</source>
        <translation>ein Werkzeugsatz konnte nicht starten: %1</translation>
    </message>
    <message numerus="yes">
        <source>no valid output within %n turn(s)</source>
        <translation>
            <numerusform>keine gültige Ausgabe innerhalb von %n Runde</numerusform>
            <numerusform>keine gültige Ausgabe innerhalb von %n Runden</numerusform>
        </translation>
    </message>
    <message>
        <source>HTTP %1%2: %3</source>
        <translation>HTTP %1%2: %3</translation>
    </message>
    <message>
        <source>the model refused (%1)</source>
        <translation>das Modell hat abgelehnt (%1)</translation>
    </message>
    <message>
        <source>the reply was cut off at the output limit (max_tokens %1)</source>
        <translation>die Antwort wurde an der Ausgabegrenze abgeschnitten (max_tokens %1)</translation>
    </message>
    <message>
        <source>the reply was cut off at the output limit</source>
        <translation>die Antwort wurde an der Ausgabegrenze abgeschnitten</translation>
    </message>
</context>
<context>
    <name>Callscope::SchemaBuilder</name>
    <message>
        <source>Add field</source>
        <translation>Feld hinzufügen</translation>
    </message>
    <message>
        <source>Add field inside</source>
        <translation>Feld darin hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>Nach oben</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>Nach unten</translation>
    </message>
    <message>
        <source>Fields of the response schema</source>
        <translation>Felder des Antwortschemas</translation>
    </message>
    <message>
        <source>Adds a field to the selected object, or to the objects of the selected list.</source>
        <translation>Fügt dem ausgewählten Objekt ein Feld hinzu, oder den Objekten der ausgewählten Liste.</translation>
    </message>
    <message>
        <source>The JSON below is not a valid schema object yet; fix it there to use the fields.</source>
        <translation>Das JSON unten ist noch kein gültiges Schema-Objekt; beheben Sie es dort, um die Felder zu nutzen.</translation>
    </message>
    <message>
        <source>This schema uses features the builder does not show (%1); edit it in the JSON below.</source>
        <translation>Dieses Schema nutzt Funktionen, die die Feldansicht nicht zeigt (%1); bearbeiten Sie es im JSON unten.</translation>
    </message>
    <message>
        <source>values separated by commas (text fields only)</source>
        <translation>Werte durch Kommas getrennt (nur Textfelder)</translation>
    </message>
    <message>
        <source>what the model should put in this field</source>
        <translation>was das Modell in dieses Feld schreiben soll</translation>
    </message>
    <message>
        <source>Allowed &amp;values:</source>
        <translation>Erlaubte &amp;Werte:</translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation>&amp;Beschreibung:</translation>
    </message>
    <message>
        <source>the top</source>
        <translation>die oberste Ebene</translation>
    </message>
    <message>
        <source>This schema is not valid JSON Schema, so no engine can use it. At %1: %2.</source>
        <translation>Dieses Schema ist kein gültiges JSON Schema, daher kann es keine Engine verwenden. Bei %1: %2.</translation>
    </message>
    <message>
        <source>Findings lists the others.</source>
        <translation>Die übrigen stehen unter Befunde.</translation>
    </message>
    <message>
        <source>Fix it in the JSON below.</source>
        <translation>Korrigieren Sie es im JSON unten.</translation>
    </message>
</context>
<context>
    <name>Callscope::SchemaFieldModel</name>
    <message>
        <source>any</source>
        <translation>beliebig</translation>
    </message>
    <message>
        <source>text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>number</source>
        <translation>Zahl</translation>
    </message>
    <message>
        <source>whole number</source>
        <translation>ganze Zahl</translation>
    </message>
    <message>
        <source>yes/no</source>
        <translation>ja/nein</translation>
    </message>
    <message>
        <source>object</source>
        <translation>Objekt</translation>
    </message>
    <message>
        <source>list</source>
        <translation>Liste</translation>
    </message>
    <message>
        <source>The answer must contain this field.</source>
        <translation>Die Antwort muss dieses Feld enthalten.</translation>
    </message>
    <message>
        <source>The answer may give null instead of a value (for a field the text may not mention).</source>
        <translation>Die Antwort darf null statt eines Werts geben (für ein Feld, das der Text vielleicht nicht erwähnt).</translation>
    </message>
    <message>
        <source>For a list: the type of each item (an object item has fields of its own).</source>
        <translation>Bei einer Liste: der Typ jedes Eintrags (ein Objekt-Eintrag hat eigene Felder).</translation>
    </message>
    <message>
        <source>For text: the only values allowed, separated by commas. Empty allows any text.</source>
        <translation>Bei Text: die einzigen erlaubten Werte, durch Kommas getrennt. Leer erlaubt jeden Text.</translation>
    </message>
    <message>
        <source>Tells the model what to put in the field.</source>
        <translation>Sagt dem Modell, was in das Feld gehört.</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Item type</source>
        <translation>Eintragstyp</translation>
    </message>
    <message>
        <source>Required</source>
        <translation>Pflicht</translation>
    </message>
    <message>
        <source>Or null</source>
        <translation>Oder null</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>Allowed values</source>
        <translation>Erlaubte Werte</translation>
    </message>
</context>
<context>
    <name>Callscope::SessionListModel</name>
    <message>
        <source>Session %1</source>
        <translation>Sitzung %1</translation>
    </message>
    <message>
        <source>Session %1, started %2</source>
        <translation>Sitzung %1, begonnen %2</translation>
    </message>
    <message>
        <source>there is no history database</source>
        <translation>es gibt keine Verlaufsdatenbank</translation>
    </message>
    <message>
        <source>the store writer cannot open the history database</source>
        <translation>der Schreibdienst kann die Verlaufsdatenbank nicht öffnen</translation>
    </message>
    <message>
        <source>there is no session %1</source>
        <translation>es gibt keine Sitzung %1</translation>
    </message>
</context>
<context>
    <name>Callscope::SessionView</name>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>Run spec in session…</source>
        <translation>Spezifikation in der Sitzung ausführen …</translation>
    </message>
    <message>
        <source>Compact now</source>
        <translation>Jetzt verdichten</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Umbenennen</translation>
    </message>
    <message>
        <source>Type a message (Send), or the input of a spec (Run spec in session)</source>
        <translation>Nachricht eingeben (Senden) oder die Eingabe einer Spezifikation (Spezifikation in der Sitzung ausführen)</translation>
    </message>
    <message>
        <source>Engine of the open spec</source>
        <translation>Engine der geöffneten Spezifikation</translation>
    </message>
    <message>
        <source>Profile %1 (%2)</source>
        <translation>Profil %1 (%2)</translation>
    </message>
    <message>
        <source>Chat engine:</source>
        <translation>Chat-Engine:</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>Neue Sitzung</translation>
    </message>
    <message>
        <source>The session could not be created: %1</source>
        <translation>Die Sitzung konnte nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>The session could not be renamed: %1</source>
        <translation>Die Sitzung konnte nicht umbenannt werden: %1</translation>
    </message>
    <message>
        <source>Engine: %1 · %2</source>
        <translation>Engine: %1 · %2</translation>
    </message>
    <message>
        <source>Run spec in session</source>
        <translation>Spezifikation in der Sitzung ausführen</translation>
    </message>
    <message>
        <source>Runs the spec open in the editor (%1) on the text typed below.</source>
        <translation>Führt die im Editor geöffnete Spezifikation (%1) mit dem unten eingegebenen Text aus.</translation>
    </message>
    <message>
        <source>Pick a spec file and run it on the text typed below.</source>
        <translation>Wählen Sie eine Spezifikationsdatei und führen Sie sie mit dem unten eingegebenen Text aus.</translation>
    </message>
    <message>
        <source>Pick an engine profile for chat turns (or open a spec).</source>
        <translation>Wählen Sie ein Engine-Profil für Chat-Runden (oder öffnen Sie eine Spezifikation).</translation>
    </message>
    <message>
        <source>Runs need the history database.</source>
        <translation>Läufe brauchen die Verlaufsdatenbank.</translation>
    </message>
    <message>
        <source>Another call is running; wait for it to finish.</source>
        <translation>Ein anderer Aufruf läuft; warten Sie, bis er fertig ist.</translation>
    </message>
    <message>
        <source>Select or create a session first.</source>
        <translation>Wählen Sie zuerst eine Sitzung aus oder legen Sie eine an.</translation>
    </message>
    <message>
        <source>Type a message first.</source>
        <translation>Geben Sie zuerst eine Nachricht ein.</translation>
    </message>
    <message>
        <source>Waiting for the reply…</source>
        <translation>Warte auf die Antwort …</translation>
    </message>
    <message>
        <source>Running %1 in the session…</source>
        <translation>%1 wird in der Sitzung ausgeführt …</translation>
    </message>
    <message>
        <source>Run a spec in the session</source>
        <translation>Eine Spezifikation in der Sitzung ausführen</translation>
    </message>
    <message>
        <source>Specs (*.json)</source>
        <translation>Spezifikationen (*.json)</translation>
    </message>
    <message>
        <source>The spec %1 cannot be used: %2</source>
        <translation>Die Spezifikation %1 kann nicht verwendet werden: %2</translation>
    </message>
    <message>
        <source>The session could not be read: %1</source>
        <translation>Die Sitzung konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Structured call %1</source>
        <translation>Strukturierter Aufruf %1</translation>
    </message>
    <message>
        <source>open call %1</source>
        <translation>Aufruf %1 öffnen</translation>
    </message>
    <message>
        <source>Input:</source>
        <translation>Eingabe:</translation>
    </message>
    <message>
        <source>You</source>
        <translation>Sie</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>(compacted)</source>
        <translation>(verdichtet)</translation>
    </message>
    <message numerus="yes">
        <source>Fold all but the newest %n message(s) into a rolling summary (a call of kind compaction, on the chat engine). No message is deleted.</source>
        <translation>
            <numerusform>Alle außer der %n neuesten Nachricht in eine fortlaufende Zusammenfassung verdichten (ein Aufruf der Art compaction auf der Chat-Engine). Es wird keine Nachricht gelöscht.</numerusform>
            <numerusform>Alle außer den %n neuesten Nachrichten in eine fortlaufende Zusammenfassung verdichten (ein Aufruf der Art compaction auf der Chat-Engine). Es wird keine Nachricht gelöscht.</numerusform>
        </translation>
    </message>
    <message>
        <source>Compacted: the summary is call %1.</source>
        <translation>Verdichtet: Die Zusammenfassung ist Aufruf %1.</translation>
    </message>
    <message>
        <source>Nothing to compact yet.</source>
        <translation>Noch nichts zu verdichten.</translation>
    </message>
    <message>
        <source>Compaction failed: %1</source>
        <translation>Verdichten fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Compacting…</source>
        <translation>Wird verdichtet …</translation>
    </message>
    <message>
        <source>Summary of the compacted messages: %1</source>
        <translation>Zusammenfassung der verdichteten Nachrichten: %1</translation>
    </message>
    <message>
        <source>The turn waits for your decision on %1.</source>
        <translation>Die Runde wartet auf Ihre Entscheidung zu %1.</translation>
    </message>
    <message>
        <source>The turn waits for the result of %1.</source>
        <translation>Die Runde wartet auf das Ergebnis von %1.</translation>
    </message>
    <message>
        <source>The turn did not complete (%1): %2</source>
        <translation>Der Zug wurde nicht abgeschlossen (%1): %2</translation>
    </message>
    <message>
        <source>(in progress)</source>
        <translation>(läuft)</translation>
    </message>
    <message>
        <source>Waiting for you: %1 needs your approval. Approve or refuse below.</source>
        <translation>Wartet auf Sie: %1 braucht Ihre Freigabe. Erlauben Sie es unten oder lehnen Sie es ab.</translation>
    </message>
    <message>
        <source>Waiting for you: type the result of %1 below, then Send Result.</source>
        <translation>Wartet auf Sie: geben Sie unten das Ergebnis von %1 ein, dann Ergebnis senden.</translation>
    </message>
    <message>
        <source>Chat turns need a live engine: the replay engine of this spec only plays back its recording, whatever you type. Pick an engine profile in the list above (Edit &gt; Preferences adds one); Run spec in session still works.</source>
        <translation>Chat-Runden brauchen eine echte Engine: Die Replay-Engine dieser Spezifikation spielt nur ihre Aufzeichnung ab, egal was Sie eingeben. Wählen Sie oben ein Engine-Profil (Bearbeiten &gt; Einstellungen legt eines an); Spezifikation in der Sitzung ausführen funktioniert weiterhin.</translation>
    </message>
    <message>
        <source>The sessions could not be read: %1</source>
        <translation>Die Sitzungen konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>no session is picked</source>
        <translation>keine Sitzung ausgewählt</translation>
    </message>
    <message>
        <source>Select a session above, or press New to start one.</source>
        <translation>Wählen Sie oben eine Sitzung, oder beginnen Sie mit Neu eine neue.</translation>
    </message>
    <message>
        <source>Press New to start a session.</source>
        <translation>Beginnen Sie mit Neu eine Sitzung.</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Kann nicht ausgeführt werden: %1</translation>
    </message>
</context>
<context>
    <name>Callscope::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Engines and keys</source>
        <translation>Engines und Schlüssel</translation>
    </message>
    <message>
        <source>Calls at once</source>
        <translation>Gleichzeitige Aufrufe</translation>
    </message>
    <message>
        <source>Telemetry</source>
        <translation>Telemetrie</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
</context>
<context>
    <name>Callscope::SharedHistoryLabel</name>
    <message>
        <source>Kept in %1 until the server can be reached; sent on their own then, each once.</source>
        <translation>Sie liegen in %1, bis der Server erreichbar ist; dann werden sie von selbst gesendet, jeder einmal.</translation>
    </message>
</context>
<context>
    <name>Callscope::SpecCheck</name>
    <message>
        <source>&quot;%1&quot; is not valid JSON Schema here: %2</source>
        <translation>„%1“ ist hier kein gültiges JSON Schema: %2</translation>
    </message>
</context>
<context>
    <name>Callscope::SpecDocument</name>
    <message>
        <source>Edit spec</source>
        <translation>Spezifikation bearbeiten</translation>
    </message>
    <message>
        <source>Untitled spec</source>
        <translation>Unbenannte Spezifikation</translation>
    </message>
    <message>
        <source>the spec has never been saved</source>
        <translation>die Spezifikation wurde nie gespeichert</translation>
    </message>
</context>
<context>
    <name>Callscope::SpecFindingsModel</name>
    <message>
        <source>line %1, column %2</source>
        <translation>Zeile %1, Spalte %2</translation>
    </message>
    <message>
        <source>(document)</source>
        <translation>(Dokument)</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>Ort</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Rule id: %1</source>
        <translation>Regel-ID: %1</translation>
    </message>
</context>
<context>
    <name>Callscope::SpecFormEditor</name>
    <message>
        <source>expected exactly one JSON value</source>
        <translation>genau ein JSON-Wert erwartet</translation>
    </message>
    <message>
        <source>Spec sections</source>
        <translation>Abschnitte der Spezifikation</translation>
    </message>
    <message>
        <source>&amp;General</source>
        <translation>&amp;Allgemein</translation>
    </message>
    <message>
        <source>&amp;Engine</source>
        <translation>&amp;Engine</translation>
    </message>
    <message>
        <source>Response &amp;schema</source>
        <translation>Antwort&amp;schema</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>&amp;Werkzeuge</translation>
    </message>
    <message>
        <source>&amp;Pre-seeds &amp;&amp; MCP</source>
        <translation>&amp;Vorbelegung &amp;&amp; MCP</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>Systemprompt</translation>
    </message>
    <message>
        <source>Output parser</source>
        <translation>Ausgabeparser</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>Text output field</source>
        <translation>Feld für Textausgabe</translation>
    </message>
    <message>
        <source>field that takes a plain-text answer (optional)</source>
        <translation>Feld, das eine reine Textantwort aufnimmt (optional)</translation>
    </message>
    <message>
        <source>Maximum turns</source>
        <translation>Maximale Runden</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>&amp;Art:</translation>
    </message>
    <message>
        <source>System &amp;prompt:</source>
        <translation>System&amp;prompt:</translation>
    </message>
    <message>
        <source>Output &amp;parser:</source>
        <translation>A&amp;usgabeparser:</translation>
    </message>
    <message>
        <source>Te&amp;xt output field:</source>
        <translation>Feld für Te&amp;xtausgabe:</translation>
    </message>
    <message>
        <source>Max &amp;turns:</source>
        <translation>Max. &amp;Runden:</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Engine type</source>
        <translation>Engine-Typ</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>Basis-URL</translation>
    </message>
    <message>
        <source>the provider&apos;s public endpoint</source>
        <translation>der öffentliche Endpunkt des Anbieters</translation>
    </message>
    <message>
        <source>Engine profile</source>
        <translation>Engine-Profil</translation>
    </message>
    <message>
        <source>API key environment variable</source>
        <translation>Umgebungsvariable für den API-Schlüssel</translation>
    </message>
    <message>
        <source>Maximum output tokens</source>
        <translation>Maximale Ausgabetokens</translation>
    </message>
    <message>
        <source>(engine default)</source>
        <translation>(Standard der Engine)</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Context window</source>
        <translation>Kontextfenster</translation>
    </message>
    <message>
        <source>(assumed)</source>
        <translation>(angenommen)</translation>
    </message>
    <message>
        <source>Stream the reply</source>
        <translation>Antwort streamen</translation>
    </message>
    <message>
        <source>Replay recording or call id</source>
        <translation>Aufzeichnung oder Aufruf-ID für die Wiedergabe</translation>
    </message>
    <message>
        <source>T&amp;ype:</source>
        <translation>T&amp;yp:</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>&amp;Basis-URL:</translation>
    </message>
    <message>
        <source>Pro&amp;file:</source>
        <translation>Pro&amp;fil:</translation>
    </message>
    <message>
        <source>API &amp;key variable:</source>
        <translation>Variable für den API-&amp;Schlüssel:</translation>
    </message>
    <message>
        <source>Max &amp;output tokens:</source>
        <translation>Max. A&amp;usgabetokens:</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>&amp;Temperatur:</translation>
    </message>
    <message>
        <source>Context &amp;window:</source>
        <translation>&amp;Kontextfenster:</translation>
    </message>
    <message>
        <source>&amp;Replay from:</source>
        <translation>&amp;Wiedergabe von:</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Wiederholung</translation>
    </message>
    <message>
        <source>Maximum attempts</source>
        <translation>Maximale Versuche</translation>
    </message>
    <message>
        <source>Reask after a truncated or invalid reply</source>
        <translation>Nach einer abgeschnittenen oder ungültigen Antwort erneut fragen</translation>
    </message>
    <message>
        <source>Reask</source>
        <translation>Erneut fragen</translation>
    </message>
    <message>
        <source>Per-attempt overrides (JSON array)</source>
        <translation>Einstellungen je Versuch (JSON-Array)</translation>
    </message>
    <message>
        <source>Max &amp;attempts:</source>
        <translation>Max. &amp;Versuche:</translation>
    </message>
    <message>
        <source>Per-attempt &amp;schedule:</source>
        <translation>&amp;Plan je Versuch:</translation>
    </message>
    <message>
        <source>Context budget</source>
        <translation>Kontextbudget</translation>
    </message>
    <message>
        <source>Tool results in context</source>
        <translation>Werkzeugergebnisse im Kontext</translation>
    </message>
    <message>
        <source>all, in full</source>
        <translation>alle, vollständig</translation>
    </message>
    <message>
        <source>Tool results token budget</source>
        <translation>Token-Budget für Werkzeugergebnisse</translation>
    </message>
    <message>
        <source>(unset)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
    <message>
        <source>Tool results character budget</source>
        <translation>Zeichenbudget für Werkzeugergebnisse</translation>
    </message>
    <message>
        <source>Images in context</source>
        <translation>Bilder im Kontext</translation>
    </message>
    <message>
        <source>Tool &amp;results in context:</source>
        <translation>Werkzeug&amp;ergebnisse im Kontext:</translation>
    </message>
    <message>
        <source>Tool results to&amp;kens:</source>
        <translation>Werkzeugergebnisse, To&amp;kens:</translation>
    </message>
    <message>
        <source>Tool results &amp;characters:</source>
        <translation>Werkzeugergebnisse, &amp;Zeichen:</translation>
    </message>
    <message>
        <source>&amp;Images in context:</source>
        <translation>&amp;Bilder im Kontext:</translation>
    </message>
    <message>
        <source>Response schema</source>
        <translation>Antwortschema</translation>
    </message>
    <message>
        <source>No response schema: the final text goes through the output parser.</source>
        <translation>Kein Antwortschema: Der endgültige Text geht durch den Ausgabeparser.</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Werkzeuge</translation>
    </message>
    <message>
        <source>&amp;Add Tool</source>
        <translation>Werkzeug &amp;hinzufügen</translation>
    </message>
    <message>
        <source>Add tool</source>
        <translation>Werkzeug hinzufügen</translation>
    </message>
    <message>
        <source>Remo&amp;ve Tool</source>
        <translation>Werkzeug ent&amp;fernen</translation>
    </message>
    <message>
        <source>Remove tool</source>
        <translation>Werkzeug entfernen</translation>
    </message>
    <message>
        <source>Tool name</source>
        <translation>Werkzeugname</translation>
    </message>
    <message>
        <source>Tool description</source>
        <translation>Werkzeugbeschreibung</translation>
    </message>
    <message>
        <source>Tool runner</source>
        <translation>Werkzeugausführung</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>MCP server</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>Manual (a person types the result)</source>
        <translation>Manuell (eine Person gibt das Ergebnis ein)</translation>
    </message>
    <message>
        <source>Mock (canned result)</source>
        <translation>Mock (vorgefertigtes Ergebnis)</translation>
    </message>
    <message>
        <source>Command and arguments</source>
        <translation>Befehl und Argumente</translation>
    </message>
    <message>
        <source>program arg1 &quot;arg 2&quot; (run directly, never through a shell)</source>
        <translation>programm arg1 &quot;arg 2&quot; (direkt ausgeführt, nie über eine Shell)</translation>
    </message>
    <message>
        <source>MCP server name</source>
        <translation>Name des MCP-Servers</translation>
    </message>
    <message>
        <source>Mock result (JSON)</source>
        <translation>Mock-Ergebnis (JSON)</translation>
    </message>
    <message>
        <source>Requires approval</source>
        <translation>Braucht Freigabe</translation>
    </message>
    <message>
        <source>Timeout in milliseconds</source>
        <translation>Zeitlimit in Millisekunden</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Tool input schema</source>
        <translation>Eingabeschema des Werkzeugs</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation>&amp;Beschreibung:</translation>
    </message>
    <message>
        <source>R&amp;unner:</source>
        <translation>A&amp;usführung:</translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation>Bef&amp;ehl:</translation>
    </message>
    <message>
        <source>MCP ser&amp;ver:</source>
        <translation>MCP-Ser&amp;ver:</translation>
    </message>
    <message>
        <source>Moc&amp;k result:</source>
        <translation>Moc&amp;k-Ergebnis:</translation>
    </message>
    <message>
        <source>T&amp;imeout:</source>
        <translation>&amp;Zeitlimit:</translation>
    </message>
    <message>
        <source>Input sc&amp;hema:</source>
        <translation>Eingabesc&amp;hema:</translation>
    </message>
    <message>
        <source>Describe when to use this tool.</source>
        <translation>Beschreiben Sie, wann dieses Werkzeug benutzt werden soll.</translation>
    </message>
    <message>
        <source>Pre-seeded tool calls (JSON array)</source>
        <translation>Vorbelegte Werkzeugaufrufe (JSON-Array)</translation>
    </message>
    <message>
        <source>MCP servers (JSON object)</source>
        <translation>MCP-Server (JSON-Objekt)</translation>
    </message>
    <message>
        <source>Pre-seeded tool calls</source>
        <translation>Vorbelegte Werkzeugaufrufe</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>%1 is not valid JSON: %2 (line %3, column %4)</source>
        <translation>%1 ist kein gültiges JSON: %2 (Zeile %3, Spalte %4)</translation>
    </message>
    <message>
        <source>the spec</source>
        <translation>die Spezifikation</translation>
    </message>
    <message>
        <source>%1: expected %2</source>
        <translation>%1: %2 erwartet</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>ein Objekt</translation>
    </message>
    <message>
        <source>an array of objects</source>
        <translation>ein Array von Objekten</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Output mode</source>
        <translation>Ausgabemodus</translation>
    </message>
    <message>
        <source>Tool (submit_output)</source>
        <translation>Werkzeug (submit_output)</translation>
    </message>
    <message>
        <source>Native (the provider&apos;s structured output)</source>
        <translation>Nativ (strukturierte Ausgabe des Anbieters)</translation>
    </message>
    <message>
        <source>Prompted (schema in the system prompt)</source>
        <translation>Per Prompt (Schema im Systemprompt)</translation>
    </message>
    <message>
        <source>How the output of a call with a response schema is produced</source>
        <translation>Wie die Ausgabe eines Aufrufs mit Antwortschema erzeugt wird</translation>
    </message>
    <message>
        <source>Output &amp;mode:</source>
        <translation>Ausgabe&amp;modus:</translation>
    </message>
    <message>
        <source>Timeout per attempt</source>
        <translation>Zeitlimit je Versuch</translation>
    </message>
    <message>
        <source>(profile or %1 s)</source>
        <translation>(Profil oder %1 s)</translation>
    </message>
    <message>
        <source>timeout_ms: the longest one HTTP attempt may take, first byte sent to last byte received</source>
        <translation>timeout_ms: wie lange ein HTTP-Versuch höchstens dauern darf, vom ersten gesendeten bis zum letzten empfangenen Byte</translation>
    </message>
    <message>
        <source>Idle timeout</source>
        <translation>Leerlauf-Zeitlimit</translation>
    </message>
    <message>
        <source>idle_timeout_ms: how long the provider may send nothing before the attempt ends</source>
        <translation>idle_timeout_ms: wie lange der Anbieter nichts senden darf, bevor der Versuch endet</translation>
    </message>
    <message>
        <source>Time&amp;out per attempt:</source>
        <translation>Zeit&amp;limit je Versuch:</translation>
    </message>
    <message>
        <source>I&amp;dle timeout:</source>
        <translation>Lee&amp;rlauf-Zeitlimit:</translation>
    </message>
    <message>
        <source>Schema sent</source>
        <translation>Gesendetes Schema</translation>
    </message>
    <message>
        <source>Changes made to the schema sent</source>
        <translation>Änderungen am gesendeten Schema</translation>
    </message>
    <message>
        <source>Sent to %1 as it is.</source>
        <translation>Unverändert an %1 gesendet.</translation>
    </message>
    <message numerus="yes">
        <source>Sent to %1 with %n change(s); the reply is validated against the schema on the left.</source>
        <translation>
            <numerusform>Mit %n Änderung an %1 gesendet; die Antwort wird gegen das Schema links validiert.</numerusform>
            <numerusform>Mit %n Änderungen an %1 gesendet; die Antwort wird gegen das Schema links validiert.</numerusform>
        </translation>
    </message>
    <message>
        <source>(root)</source>
        <translation>(Wurzel)</translation>
    </message>
    <message>
        <source>Fix the MCP servers JSON first: it is not an object.</source>
        <translation>Korrigieren Sie zuerst das JSON der MCP-Server: Es ist kein Objekt.</translation>
    </message>
    <message>
        <source>Spec form</source>
        <translation>Formular der Spezifikation</translation>
    </message>
    <message>
        <source>From the profile</source>
        <translation>Aus dem Profil</translation>
    </message>
    <message>
        <source>Which engine type is used</source>
        <translation>Welcher Engine-Typ verwendet wird</translation>
    </message>
    <message>
        <source>From the profile (%1)</source>
        <translation>Aus dem Profil (%1)</translation>
    </message>
    <message>
        <source>No profile: the call goes to %1.</source>
        <translation>Kein Profil: Der Aufruf geht an %1.</translation>
    </message>
    <message>
        <source>There is no engine profile named &quot;%1&quot; (Edit &gt; Preferences).</source>
        <translation>Es gibt kein Engine-Profil namens „%1“ (Bearbeiten &gt; Einstellungen).</translation>
    </message>
    <message>
        <source>The profile &quot;%1&quot; decides: %2.</source>
        <translation>Das Profil „%1“ entscheidet: %2.</translation>
    </message>
    <message>
        <source>The spec says %1, as the profile &quot;%2&quot; does.</source>
        <translation>Die Spezifikation sagt %1, wie das Profil „%2“.</translation>
    </message>
    <message>
        <source>The spec&apos;s %1 wins over the profile&apos;s %2; choose &quot;From the profile&quot; to use the profile&apos;s.</source>
        <translation>%1 aus der Spezifikation geht vor %2 aus dem Profil; wählen Sie „Aus dem Profil“, um den Typ des Profils zu verwenden.</translation>
    </message>
    <message>
        <source>Stop early</source>
        <translation>Vorzeitig anhalten</translation>
    </message>
    <message>
        <source>The reply is cut off at the first field that can no longer match the schema, and the correction is sent at once</source>
        <translation>Die Antwort wird beim ersten Feld abgebrochen, das nicht mehr zum Schema passen kann, und die Korrektur wird sofort gesendet</translation>
    </message>
    <message>
        <source>Stop as soon as the answer cannot be valid</source>
        <translation>Anhalten, sobald die Antwort nicht mehr gültig sein kann</translation>
    </message>
</context>
<context>
    <name>Callscope::SpecIO</name>
    <message>
        <source>line %1, column %2</source>
        <translation>Zeile %1, Spalte %2</translation>
    </message>
    <message>
        <source>expected %1, got %2</source>
        <translation>%1 erwartet, %2 erhalten</translation>
    </message>
    <message>
        <source>missing required field %1</source>
        <translation>Pflichtfeld %1 fehlt</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>eine Zeichenkette</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <source>a boolean</source>
        <translation>ein Wahrheitswert</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>eine Zahl</translation>
    </message>
    <message>
        <source>must be at least %1, got %2</source>
        <translation>muss mindestens %1 sein, ist %2</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>eine Ganzzahl</translation>
    </message>
    <message>
        <source>must be at most %1, got %2</source>
        <translation>darf höchstens %1 sein, ist %2</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>ein Objekt</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>ein Array</translation>
    </message>
    <message>
        <source>expected an array of strings (program and arguments, run without a shell), got a string</source>
        <translation>ein Array von Zeichenketten erwartet (Programm und Argumente, ohne Shell ausgeführt), aber eine Zeichenkette erhalten</translation>
    </message>
    <message>
        <source>must name at least the program to run</source>
        <translation>muss mindestens das auszuführende Programm nennen</translation>
    </message>
    <message>
        <source>unknown value %1 (the only value is &quot;all&quot;)</source>
        <translation>unbekannter Wert %1 (der einzige Wert ist &quot;all&quot;)</translation>
    </message>
    <message>
        <source>the name &quot;submit_output&quot; is reserved for the tool that returns the response schema&apos;s output</source>
        <translation>der Name &quot;submit_output&quot; ist für das Werkzeug reserviert, das die Ausgabe des Antwortschemas zurückgibt</translation>
    </message>
    <message>
        <source>duplicate tool name %1 (first used at %2)</source>
        <translation>doppelter Werkzeugname %1 (zuerst verwendet bei %2)</translation>
    </message>
    <message>
        <source>unknown MCP server %1 (mcp_servers has no entry of that name)</source>
        <translation>unbekannter MCP-Server %1 (mcp_servers hat keinen Eintrag dieses Namens)</translation>
    </message>
    <message>
        <source>more than one runner (%1); give exactly one of command, mcp, manual or mock</source>
        <translation>mehr als eine Ausführungsart (%1); geben Sie genau eine von command, mcp, manual oder mock an</translation>
    </message>
    <message>
        <source>no runner; give one of command, mcp, manual (true) or mock</source>
        <translation>keine Ausführungsart; geben Sie eine von command, mcp, manual (true) oder mock an</translation>
    </message>
    <message>
        <source>unknown tool %1 (no entry in tools has that name)</source>
        <translation>unbekanntes Werkzeug %1 (kein Eintrag in tools hat diesen Namen)</translation>
    </message>
    <message>
        <source>unknown engine type %1 (expected one of %2)</source>
        <translation>unbekannter Engine-Typ %1 (erwartet wird einer von %2)</translation>
    </message>
    <message>
        <source>expected an http or https URL such as &quot;http://127.0.0.1:8080&quot;, got %1</source>
        <translation>eine http- oder https-URL wie &quot;http://127.0.0.1:8080&quot; erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>expected the name of an environment variable (letters, digits and _), not the key itself</source>
        <translation>der Name einer Umgebungsvariablen erwartet (Buchstaben, Ziffern und _), nicht der Schlüssel selbst</translation>
    </message>
    <message>
        <source>API keys do not belong in spec files; name an environment variable in api_key_env or a profile whose key is in the keychain</source>
        <translation>API-Schlüssel gehören nicht in Spezifikationsdateien; nennen Sie eine Umgebungsvariable in api_key_env oder ein Profil, dessen Schlüssel im Schlüsselbund liegt</translation>
    </message>
    <message>
        <source>the replay engine answers from a recording file or a stored call id</source>
        <translation>die Wiedergabe-Engine antwortet aus einer Aufzeichnungsdatei oder einer gespeicherten Aufruf-ID</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <source>unknown output parser %1 (expected json or text)</source>
        <translation>unbekannter Ausgabeparser %1 (erwartet json oder text)</translation>
    </message>
    <message>
        <source>the submit_output argument a plain-text answer goes into</source>
        <translation>das Argument von submit_output, in das eine reine Textantwort kommt</translation>
    </message>
    <message>
        <source>needs a response_schema: text_output maps a plain-text answer onto the arguments of submit_output</source>
        <translation>braucht ein response_schema: text_output überträgt eine reine Textantwort auf die Argumente von submit_output</translation>
    </message>
    <message>
        <source>expected an object, got %1</source>
        <translation>ein Objekt erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>unknown output mode %1 (expected tool, native or prompted)</source>
        <translation>unbekannter Ausgabemodus %1 (erwartet tool, native oder prompted)</translation>
    </message>
    <message>
        <source>both command and url; give command for a local server or url for a remote one</source>
        <translation>sowohl command als auch url; geben Sie command für einen lokalen Server oder url für einen entfernten an</translation>
    </message>
    <message>
        <source>%1 is not an http:// or https:// URL</source>
        <translation>%1 ist keine http://- oder https://-URL</translation>
    </message>
    <message>
        <source>the program that starts the server, or &quot;url&quot; for a remote server</source>
        <translation>das Programm, das den Server startet, oder &quot;url&quot; für einen entfernten Server</translation>
    </message>
    <message>
        <source>headers are only sent to a remote server (one with &quot;url&quot;)</source>
        <translation>Header werden nur an einen entfernten Server gesendet (einen mit &quot;url&quot;)</translation>
    </message>
    <message>
        <source>%1 is not a valid HTTP header name</source>
        <translation>%1 ist kein gültiger HTTP-Headername</translation>
    </message>
    <message>
        <source>a header value must be one line</source>
        <translation>ein Headerwert muss eine einzige Zeile sein</translation>
    </message>
    <message>
        <source>auth is only used with a remote server (one with &quot;url&quot;)</source>
        <translation>auth wird nur mit einem entfernten Server verwendet (einem mit &quot;url&quot;)</translation>
    </message>
    <message>
        <source>unknown value %1 (use &quot;oauth&quot;, &quot;none&quot; or an object with &quot;bearer_env&quot; or &quot;oauth&quot;)</source>
        <translation>unbekannter Wert %1 (verwenden Sie &quot;oauth&quot;, &quot;none&quot; oder ein Objekt mit &quot;bearer_env&quot; oder &quot;oauth&quot;)</translation>
    </message>
    <message>
        <source>both bearer_env and oauth; give one</source>
        <translation>sowohl bearer_env als auch oauth; geben Sie eines davon an</translation>
    </message>
    <message>
        <source>a client secret does not belong in a spec file; put it in an environment variable and name it with &quot;client_secret_env&quot;</source>
        <translation>ein Client-Secret gehört nicht in eine Spezifikationsdatei; legen Sie es in eine Umgebungsvariable und nennen Sie diese mit &quot;client_secret_env&quot;</translation>
    </message>
    <message>
        <source>the client the secret belongs to</source>
        <translation>der Client, zu dem das Secret gehört</translation>
    </message>
    <message>
        <source>unknown field (known: %1)</source>
        <translation>unbekanntes Feld (bekannt: %1)</translation>
    </message>
    <message>
        <source>true or an object</source>
        <translation>true oder ein Objekt</translation>
    </message>
    <message>
        <source>give &quot;bearer_env&quot; (a variable holding the token) or &quot;oauth&quot;</source>
        <translation>geben Sie &quot;bearer_env&quot; (eine Variable mit dem Token) oder &quot;oauth&quot; an</translation>
    </message>
    <message>
        <source>a token does not belong in a spec file; name the variable that holds it with &quot;bearer_env&quot;</source>
        <translation>ein Token gehört nicht in eine Spezifikationsdatei; nennen Sie die Variable, die es enthält, mit &quot;bearer_env&quot;</translation>
    </message>
    <message>
        <source>&quot;oauth&quot; or an object</source>
        <translation>&quot;oauth&quot; oder ein Objekt</translation>
    </message>
    <message>
        <source>unknown value %1 (use &quot;always&quot;, &quot;destructive&quot; or &quot;never&quot;)</source>
        <translation>unbekannter Wert %1 (verwenden Sie &quot;always&quot;, &quot;destructive&quot; oder &quot;never&quot;)</translation>
    </message>
</context>
<context>
    <name>Callscope::SpecTab</name>
    <message>
        <source>Spec as JSON</source>
        <translation>Spezifikation als JSON</translation>
    </message>
    <message>
        <source>Spec</source>
        <translation>Spezifikation</translation>
    </message>
    <message>
        <source>&amp;Form</source>
        <translation>&amp;Formular</translation>
    </message>
    <message>
        <source>JS&amp;ON</source>
        <translation>JS&amp;ON</translation>
    </message>
    <message>
        <source>Calls are not stored: %1</source>
        <translation>Aufrufe werden nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>The spec cannot run: %1</source>
        <translation>Die Spezifikation kann nicht laufen: %1</translation>
    </message>
    <message>
        <source>This spec cannot run: %1</source>
        <translation>Diese Spezifikation kann nicht laufen: %1</translation>
    </message>
    <message>
        <source>This spec cannot run: %1 (and %2 more problems in Findings)</source>
        <translation>Diese Spezifikation kann nicht laufen: %1 (und %2 weitere Probleme unter Befunde)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>This spec cannot run: %1 (and %n more in Findings)</source>
        <translation>
            <numerusform>Diese Spezifikation kann nicht ausgeführt werden: %1 (und %n weiterer in den Befunden)</numerusform>
            <numerusform>Diese Spezifikation kann nicht ausgeführt werden: %1 (und %n weitere in den Befunden)</numerusform>
        </translation>
    </message>
    <message>
        <source>The history is read-only: %1</source>
        <translation>Der Verlauf ist schreibgeschützt: %1</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Kann nicht ausgeführt werden: %1</translation>
    </message>
</context>
<context>
    <name>Callscope::SseDecoder</name>
    <message>
        <source>The event stream sent a line or event larger than %1 MiB.</source>
        <translation>Der Ereignisstream hat eine Zeile oder ein Ereignis größer als %1 MiB gesendet.</translation>
    </message>
</context>
<context>
    <name>Callscope::StreamCheck</name>
    <message>
        <source>an object</source>
        <translation>ein Objekt</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>ein Array</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>eine Zeichenkette</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>eine Zahl</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>a boolean</source>
        <translation>ein Wahrheitswert</translation>
    </message>
    <message>
        <source>there is more text after the answer</source>
        <translation>nach der Antwort folgt weiterer Text</translation>
    </message>
    <message>
        <source>a property name was expected</source>
        <translation>ein Eigenschaftsname wurde erwartet</translation>
    </message>
    <message>
        <source>&apos;:&apos; was expected after the property name</source>
        <translation>nach dem Eigenschaftsnamen wurde &apos;:&apos; erwartet</translation>
    </message>
    <message>
        <source>&apos;,&apos; or the end of the %1 was expected</source>
        <translation>&apos;,&apos; oder das Ende (%1) wurde erwartet</translation>
    </message>
    <message>
        <source>object</source>
        <translation>Objekt</translation>
    </message>
    <message>
        <source>array</source>
        <translation>Array</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a JSON value</source>
        <translation>&apos;%1&apos; ist kein JSON-Wert</translation>
    </message>
    <message>
        <source>&apos;\%1&apos; is not a valid escape</source>
        <translation>&apos;\%1&apos; ist keine gültige Escape-Sequenz</translation>
    </message>
    <message>
        <source>a \u escape needs four hexadecimal digits</source>
        <translation>eine \u-Escape-Sequenz braucht vier Hexadezimalziffern</translation>
    </message>
    <message>
        <source>a control character inside a string</source>
        <translation>ein Steuerzeichen in einer Zeichenkette</translation>
    </message>
    <message>
        <source>a JSON value was expected</source>
        <translation>ein JSON-Wert wurde erwartet</translation>
    </message>
    <message>
        <source>more than %1 items</source>
        <translation>mehr als %1 Elemente</translation>
    </message>
    <message>
        <source>this item is not allowed</source>
        <translation>dieses Element ist nicht erlaubt</translation>
    </message>
    <message>
        <source>no value is allowed here</source>
        <translation>hier ist kein Wert erlaubt</translation>
    </message>
    <message>
        <source>expected %1, got %2</source>
        <translation>erwartet: %1, erhalten: %2</translation>
    </message>
    <message>
        <source>%1 cannot be the value this field must have</source>
        <translation>%1 kann nicht der Wert sein, den dieses Feld haben muss</translation>
    </message>
    <message>
        <source>none of the allowed values is %1</source>
        <translation>keiner der erlaubten Werte ist %1</translation>
    </message>
    <message numerus="yes">
        <source>longer than %n characters</source>
        <translation>
            <numerusform>länger als %n Zeichen</numerusform>
            <numerusform>länger als %n Zeichen</numerusform>
        </translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not the start of any allowed value</source>
        <translation>&quot;%1&quot; ist nicht der Anfang eines erlaubten Werts</translation>
    </message>
    <message>
        <source>more than %1 properties</source>
        <translation>mehr als %1 Eigenschaften</translation>
    </message>
    <message>
        <source>the property &quot;%1&quot; is not allowed</source>
        <translation>die Eigenschaft &quot;%1&quot; ist nicht erlaubt</translation>
    </message>
    <message>
        <source>&apos;}&apos; was expected</source>
        <translation>&apos;}&apos; wurde erwartet</translation>
    </message>
    <message>
        <source>&apos;]&apos; was expected</source>
        <translation>&apos;]&apos; wurde erwartet</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number</source>
        <translation>&apos;%1&apos; ist keine Zahl</translation>
    </message>
</context>
<context>
    <name>Callscope::TelemetryPage</name>
    <message>
        <source>Send every call to an OpenTelemetry collector</source>
        <translation>Jeden Aufruf an einen OpenTelemetry-Collector senden</translation>
    </message>
    <message>
        <source>Add header</source>
        <translation>Header hinzufügen</translation>
    </message>
    <message>
        <source>Remove header</source>
        <translation>Header entfernen</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Testen</translation>
    </message>
    <message>
        <source>protobuf over HTTP (http/protobuf)</source>
        <translation>Protobuf über HTTP (http/protobuf)</translation>
    </message>
    <message>
        <source>JSON over HTTP (http/json)</source>
        <translation>JSON über HTTP (http/json)</translation>
    </message>
    <message>
        <source>none: no prompts, messages or tool data</source>
        <translation>keine: keine Prompts, Nachrichten oder Werkzeugdaten</translation>
    </message>
    <message>
        <source>metadata: tool names and sizes</source>
        <translation>Metadaten: Werkzeugnamen und Größen</translation>
    </message>
    <message>
        <source>full: prompts, messages, tool arguments and results</source>
        <translation>vollständig: Prompts, Nachrichten, Werkzeugargumente und -ergebnisse</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>gzip</source>
        <translation>gzip</translation>
    </message>
    <message>
        <source>name, for example Authorization</source>
        <translation>Name, zum Beispiel Authorization</translation>
    </message>
    <message>
        <source>value (kept in the keychain)</source>
        <translation>Wert (wird im Schlüsselbund aufbewahrt)</translation>
    </message>
    <message>
        <source>Header values often hold tokens: they are stored in the system keychain, never in the settings file, and never shown again. Changes apply the next time the studio starts. The OTEL_EXPORTER_OTLP_* variables, when set, win over this page.</source>
        <translation>Header-Werte enthalten oft Tokens: Sie werden im Schlüsselbund des Systems gespeichert, nie in der Einstellungsdatei, und nie wieder angezeigt. Änderungen gelten ab dem nächsten Start des Studios. Gesetzte OTEL_EXPORTER_OTLP_*-Variablen haben Vorrang vor dieser Seite.</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>Endpunkt:</translation>
    </message>
    <message>
        <source>Protocol:</source>
        <translation>Protokoll:</translation>
    </message>
    <message>
        <source>Headers:</source>
        <translation>Header:</translation>
    </message>
    <message>
        <source>Content sent:</source>
        <translation>Gesendete Inhalte:</translation>
    </message>
    <message>
        <source>Compression:</source>
        <translation>Komprimierung:</translation>
    </message>
    <message>
        <source>%1 (value typed, not saved yet)</source>
        <translation>%1 (Wert eingegeben, noch nicht gespeichert)</translation>
    </message>
    <message>
        <source>%1 (value in the keychain)</source>
        <translation>%1 (Wert im Schlüsselbund)</translation>
    </message>
    <message>
        <source>“%1” is not a header name.</source>
        <translation>„%1“ ist kein Header-Name.</translation>
    </message>
    <message>
        <source>The header %1 needs a value.</source>
        <translation>Der Header %1 braucht einen Wert.</translation>
    </message>
    <message>
        <source>Give an endpoint to send to, or turn the export off.</source>
        <translation>Geben Sie einen Endpunkt an oder schalten Sie den Export aus.</translation>
    </message>
    <message>
        <source>Saved. The studio sends with these settings from its next start.</source>
        <translation>Gespeichert. Das Studio sendet ab seinem nächsten Start mit diesen Einstellungen.</translation>
    </message>
    <message>
        <source>Saved, but the keychain refused: %1</source>
        <translation>Gespeichert, aber der Schlüsselbund hat abgelehnt: %1</translation>
    </message>
    <message>
        <source>Not tested, nothing was sent: “%1” is not an http(s) address.</source>
        <translation>Nicht getestet, nichts wurde gesendet: „%1“ ist keine http(s)-Adresse.</translation>
    </message>
    <message>
        <source>Sending a test span…</source>
        <translation>Test-Span wird gesendet …</translation>
    </message>
    <message>
        <source>Not tested, nothing was sent: %1</source>
        <translation>Nicht getestet, nichts wurde gesendet: %1</translation>
    </message>
    <message>
        <source>The address of a trace in your viewer, with {trace_id} where the trace&apos;s id goes ({span_id}: the call&apos;s own span). History and the call&apos;s tab then offer Open Trace.</source>
        <translation>Die Adresse eines Traces in Ihrem Viewer, mit {trace_id} an der Stelle der Trace-ID ({span_id}: der eigene Span des Aufrufs). Verlauf und der Tab des Aufrufs bieten dann „Trace öffnen“ an.</translation>
    </message>
    <message>
        <source>Trace link:</source>
        <translation>Trace-Link:</translation>
    </message>
</context>
<context>
    <name>Callscope::ToolJob</name>
    <message>
        <source>cancelled</source>
        <translation>cancelled</translation>
    </message>
</context>
<context>
    <name>Callscope::ToolProcess</name>
    <message>
        <source>
[... cut at %1 bytes]</source>
        <translation>
[... cut at %1 bytes]</translation>
    </message>
</context>
<context>
    <name>Callscope::ToolRegistry</name>
    <message>
        <source>Tool &quot;%1&quot; names MCP server &quot;%2&quot;, which the spec does not define.</source>
        <translation>Werkzeug „%1“ nennt den MCP-Server „%2“, den die Spezifikation nicht definiert.</translation>
    </message>
</context>
<context>
    <name>Callscope::TranscriptDelegate</name>
    <message>
        <source>  ·  turn %1</source>
        <translation>  ·  Runde %1</translation>
    </message>
    <message>
        <source>  ·  raw</source>
        <translation>  ·  roh</translation>
    </message>
</context>
<context>
    <name>Callscope::TranscriptModel</name>
    <message>
        <source>Assistant (streaming)</source>
        <translation>Assistent (streamt)</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation>Werkzeugaufruf</translation>
    </message>
    <message>
        <source>Tool result</source>
        <translation>Werkzeugergebnis</translation>
    </message>
    <message>
        <source>Correction</source>
        <translation>Korrektur</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Wiederholung</translation>
    </message>
    <message>
        <source>Validation failed</source>
        <translation>Validierung fehlgeschlagen</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>in %1 / out %2 tokens</source>
        <translation>ein %1 / aus %2 Tokens</translation>
    </message>
</context>
<context>
    <name>Callscope::TransferController</name>
    <message>
        <source>Export call %1</source>
        <translation>Aufruf %1 exportieren</translation>
    </message>
    <message>
        <source>Export the revision tree of call %1</source>
        <translation>Den Revisionsbaum von Aufruf %1 exportieren</translation>
    </message>
    <message>
        <source>Export session %1</source>
        <translation>Sitzung %1 exportieren</translation>
    </message>
    <message>
        <source>Import calls or a session</source>
        <translation>Aufrufe oder eine Sitzung importieren</translation>
    </message>
    <message>
        <source>Callscope exports (*.json);;All files (*)</source>
        <translation>Callscope-Exporte (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Exporting to %1…</source>
        <translation>Export nach %1 …</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>%1 wird importiert …</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Export and import</source>
        <translation>Export und Import</translation>
    </message>
    <message>
        <source>Cancelled; nothing was written.</source>
        <translation>Abgebrochen; es wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>The history cannot be opened: %1</source>
        <translation>Der Verlauf kann nicht geöffnet werden: %1</translation>
    </message>
</context>
<context>
    <name>Callscope::TrustDialog</name>
    <message>
        <source>Command tool</source>
        <translation>Befehlswerkzeug</translation>
    </message>
    <message>
        <source>Pre-seeded call (before the first request)</source>
        <translation>Vorbelegter Aufruf (vor der ersten Anfrage)</translation>
    </message>
    <message>
        <source>MCP server</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>Command assertion</source>
        <translation>Befehls-Zusicherung</translation>
    </message>
    <message>
        <source>Key from the environment</source>
        <translation>Schlüssel aus der Umgebung</translation>
    </message>
    <message>
        <source>Run what this file brings?</source>
        <translation>Ausführen, was diese Datei mitbringt?</translation>
    </message>
    <message>
        <source>This spec (it has no file of its own)</source>
        <translation>Diese Spezifikation (sie hat keine eigene Datei)</translation>
    </message>
    <message>
        <source>The file %1</source>
        <translation>Die Datei %1</translation>
    </message>
    <message>
        <source>%1 would run these on this computer, with your permissions. Nothing has run and nothing was sent yet. Trust it only if you know what these commands do; an edited file asks again.</source>
        <translation>%1 würde diese Befehle auf diesem Rechner mit Ihren Rechten ausführen. Bisher wurde nichts ausgeführt und nichts gesendet. Vertrauen Sie ihr nur, wenn Sie wissen, was diese Befehle tun; eine geänderte Datei fragt erneut.</translation>
    </message>
    <message>
        <source>%1 would send an engine profile&apos;s key to another address. Nothing was sent yet.</source>
        <translation>%1 würde den Schlüssel eines Engine-Profils an eine andere Adresse senden. Bisher wurde nichts gesendet.</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Was</translation>
    </message>
    <message>
        <source>Command line or variable</source>
        <translation>Befehlszeile oder Variable</translation>
    </message>
    <message>
        <source>Working folder</source>
        <translation>Arbeitsordner</translation>
    </message>
    <message>
        <source>Key: %1</source>
        <translation>Schlüssel: %1</translation>
    </message>
    <message>
        <source>Send the key and Run</source>
        <translation>Schlüssel senden und ausführen</translation>
    </message>
    <message>
        <source>Trust and Run</source>
        <translation>Vertrauen und ausführen</translation>
    </message>
</context>
<context>
    <name>Callscope::TrustPolicy</name>
    <message>
        <source>command tool %1 runs: %2 (in %3)</source>
        <translation>Befehlswerkzeug %1 führt aus: %2 (in %3)</translation>
    </message>
    <message>
        <source>pre-seeded call of %1 runs before the first request: %2 (in %3)</source>
        <translation>vorbelegter Aufruf von %1 läuft vor der ersten Anfrage: %2 (in %3)</translation>
    </message>
    <message>
        <source>MCP server %1 starts: %2 (in %3)</source>
        <translation>MCP-Server %1 startet: %2 (in %3)</translation>
    </message>
    <message>
        <source>assertion %1 runs: %2 (in %3)</source>
        <translation>Zusicherung %1 führt aus: %2 (in %3)</translation>
    </message>
    <message>
        <source>reads the environment variable %1 as a key (%2)</source>
        <translation>liest die Umgebungsvariable %1 als Schlüssel (%2)</translation>
    </message>
    <message>
        <source>the spec names the engine profile &quot;%1&quot; (%2 at %3) but asks for the engine type %4 at %5: the profile&apos;s key goes only to its own engine. Remove &quot;type&quot; and &quot;base_url&quot; from the engine block, or make a profile for the other engine.</source>
        <translation>die Spezifikation nennt das Engine-Profil „%1“ (%2 unter %3), verlangt aber den Engine-Typ %4 unter %5: der Schlüssel des Profils geht nur an seine eigene Engine. Entfernen Sie „type“ und „base_url“ aus dem Engine-Block oder legen Sie ein Profil für die andere Engine an.</translation>
    </message>
    <message>
        <source>the spec names the engine profile &quot;%1&quot; whose key belongs to %2 but sends requests to %3: the profile&apos;s key goes only to its own address. Remove &quot;base_url&quot; from the engine block, or make a profile for the other address.</source>
        <translation>die Spezifikation nennt das Engine-Profil „%1“, dessen Schlüssel zu %2 gehört, sendet Anfragen aber an %3: der Schlüssel des Profils geht nur an seine eigene Adresse. Entfernen Sie „base_url“ aus dem Engine-Block oder legen Sie ein Profil für die andere Adresse an.</translation>
    </message>
</context>
<context>
    <name>Callscope::TrustStore</name>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>this file is not trusted, and running it would do %n thing(s) on this computer:</source>
        <translation>
            <numerusform>dieser Datei wird nicht vertraut, und sie auszuführen würde auf diesem Rechner %n Sache tun:</numerusform>
            <numerusform>dieser Datei wird nicht vertraut, und sie auszuführen würde auf diesem Rechner %n Dinge tun:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Callscope::VariantSummaryModel</name>
    <message>
        <source>The assertions that passed, each counted by its weight (default 1), averaged over the runs</source>
        <translation>Die bestandenen Zusicherungen, jede nach ihrem Gewicht gezählt (Standard 1), gemittelt über die Läufe</translation>
    </message>
    <message>
        <source>From the price table</source>
        <translation>Aus der Preistabelle</translation>
    </message>
    <message>
        <source>A model of this variant is not in the price table, so the total is not known</source>
        <translation>Ein Modell dieser Variante steht nicht in der Preistabelle, daher ist die Summe nicht bekannt</translation>
    </message>
    <message>
        <source>Cases that passed in every repeat · passed in some only (flaky) · failed; and those not run in every repeat yet</source>
        <translation>Fälle, die in jeder Wiederholung bestanden haben · nur in einigen bestanden (wackelig) · nicht bestanden; dazu die noch nicht in jeder Wiederholung ausgeführten</translation>
    </message>
    <message>
        <source>Half the runs took at most the first figure, 95 in 100 at most the second</source>
        <translation>Die Hälfte der Läufe dauerte höchstens den ersten Wert, 95 von 100 höchstens den zweiten</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>%1 (%2 to run)</source>
        <translation>%1 (%2 ausstehend)</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>Variante</translation>
    </message>
    <message>
        <source>Pass rate</source>
        <translation>Bestehensquote</translation>
    </message>
    <message>
        <source>Pass · flaky · fail</source>
        <translation>Bestanden · wackelig · nicht bestanden</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Bewertung</translation>
    </message>
    <message>
        <source>Tokens in / out</source>
        <translation>Tokens ein / aus</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Kosten</translation>
    </message>
    <message>
        <source>Latency p50 / p95</source>
        <translation>Latenz p50 / p95</translation>
    </message>
</context>
<context>
    <name>Callscope::VariantWriter</name>
    <message>
        <source>the experiment file is not a JSON object (%1)</source>
        <translation>die Experimentdatei ist kein JSON-Objekt (%1)</translation>
    </message>
    <message>
        <source>&quot;variants&quot; is not an array</source>
        <translation>&quot;variants&quot; ist kein Array</translation>
    </message>
    <message>
        <source>cannot find the variants in the file</source>
        <translation>die Varianten sind in der Datei nicht zu finden</translation>
    </message>
    <message>
        <source>cannot find the end of the experiment object</source>
        <translation>das Ende des Experimentobjekts ist nicht zu finden</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message>
        <source>line %1, column %2</source>
        <translation>Zeile %1, Spalte %2</translation>
    </message>
    <message>
        <source>%1: invalid JSON at %2: %3</source>
        <translation>%1: ungültiges JSON bei %2: %3</translation>
    </message>
    <message>
        <source>Usage: callscope-cli export CALL_ID | --session ID [--only] [--out FILE] [--db PATH]

Exports a call and its revisions (--only: the call alone), or a session with
its messages and calls, as one JSON document (format &quot;callscope-export&quot;).
</source>
        <translation>Aufruf: callscope-cli export AUFRUF_ID | --session ID [--only] [--out DATEI] [--db PFAD]

Exportiert einen Aufruf mit seinen Revisionen (--only: nur den Aufruf) oder eine Sitzung
mit ihren Nachrichten und Aufrufen als ein JSON-Dokument (Format &quot;callscope-export&quot;).
</translation>
    </message>
    <message>
        <source>export: give either one CALL_ID or --session ID (see export --help)</source>
        <translation>export: geben Sie entweder eine AUFRUF_ID oder --session ID an (siehe export --help)</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>history: unexpected argument &apos;%1&apos; (see history --help)</source>
        <translation>history: unerwartetes Argument „%1“ (siehe history --help)</translation>
    </message>
    <message>
        <source>history: unknown status &apos;%1&apos; (running, completed, failed, turn_limited, cancelled)</source>
        <translation>history: unbekannter Status „%1“ (running, completed, failed, turn_limited, cancelled)</translation>
    </message>
    <message>
        <source>history: --limit must be a number from 1 to 10000, not &apos;%1&apos;</source>
        <translation>history: --limit muss eine Zahl von 1 bis 10000 sein, nicht „%1“</translation>
    </message>
    <message>
        <source>history: --after takes a cursor such as 1764460800000:42, not &apos;%1&apos;</source>
        <translation>history: --after erwartet einen Cursor wie 1764460800000:42, nicht „%1“</translation>
    </message>
    <message>
        <source>import: expected one FILE (see import --help)</source>
        <translation>import: genau eine DATEI erwartet (siehe import --help)</translation>
    </message>
    <message>
        <source>import: cannot read %1: no such file</source>
        <translation>import: %1 kann nicht gelesen werden: Datei existiert nicht</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
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
        <translation>Aufruf: callscope-cli lint SPEZ.json [--engine TYP]

Prüft eine Spezifikation, bevor sie Tokens kostet: Werkzeugnamen, Beschreibungen,
geschlossene Mengen, Grenzen der Anbieter und Schemaregeln des Strict-Modus. Gibt die
Befunde als JSON aus; es sind Warnungen, daher ist der Exit-Code auch dann 0, wenn es
welche gibt.

Optionen:
  --engine TYP    für diesen Engine-Typ prüfen statt für den der Spezifikation
                  (%1)

Exit-Codes: 0 geprüft, 2 falsche Argumente oder eine unlesbare oder ungültige Spezifikation.
</translation>
    </message>
    <message>
        <source>--engine needs an engine type (%1)</source>
        <translation>--engine braucht einen Engine-Typ (%1)</translation>
    </message>
    <message>
        <source>unknown engine type &quot;%1&quot; (expected one of %2)</source>
        <translation>unbekannter Engine-Typ „%1“ (erwartet wird einer von %2)</translation>
    </message>
    <message>
        <source>lint takes one spec file, got %1 and %2</source>
        <translation>lint nimmt eine Spezifikationsdatei, erhalten: %1 und %2</translation>
    </message>
    <message>
        <source>lint needs a spec file: callscope-cli lint SPEC.json [--engine TYPE]</source>
        <translation>lint braucht eine Spezifikationsdatei: callscope-cli lint SPEZ.json [--engine TYP]</translation>
    </message>
    <message>
        <source>%1 is not a valid spec (1 error):</source>
        <translation>%1 ist keine gültige Spezifikation (1 Fehler):</translation>
    </message>
    <message>
        <source>%1 is not a valid spec (%2 errors):</source>
        <translation>%1 ist keine gültige Spezifikation (%2 Fehler):</translation>
    </message>
    <message>
        <source>%1 is not a usable spec:</source>
        <translation>%1 ist keine verwendbare Spezifikation:</translation>
    </message>
    <message>
        <source>The spec file.</source>
        <translation>Die Spezifikationsdatei.</translation>
    </message>
    <message>
        <source>The user&apos;s input text.</source>
        <translation>Der Eingabetext des Benutzers.</translation>
    </message>
    <message>
        <source>Read the input text from a file.</source>
        <translation>Den Eingabetext aus einer Datei lesen.</translation>
    </message>
    <message>
        <source>Send a file (image or document) with the input.</source>
        <translation>Eine Datei (Bild oder Dokument) mit der Eingabe senden.</translation>
    </message>
    <message>
        <source>Run inside this session.</source>
        <translation>In dieser Sitzung ausführen.</translation>
    </message>
    <message>
        <source>Allow a tool that needs approval.</source>
        <translation>Ein Werkzeug erlauben, das eine Freigabe braucht.</translation>
    </message>
    <message>
        <source>Do not keep the call in the history.</source>
        <translation>Den Aufruf nicht im Verlauf speichern.</translation>
    </message>
    <message>
        <source>Show this help.</source>
        <translation>Diese Hilfe anzeigen.</translation>
    </message>
    <message>
        <source>run needs exactly one spec file (see run --help)</source>
        <translation>run braucht genau eine Spezifikationsdatei (siehe run --help)</translation>
    </message>
    <message>
        <source>give either --input or --input-file, not both</source>
        <translation>geben Sie entweder --input oder --input-file an, nicht beides</translation>
    </message>
    <message>
        <source>--session needs a session id (a number)</source>
        <translation>--session braucht eine Sitzungs-ID (eine Zahl)</translation>
    </message>
    <message>
        <source>--session needs the history: it cannot be combined with --no-store</source>
        <translation>--session braucht den Verlauf: Es kann nicht mit --no-store kombiniert werden</translation>
    </message>
    <message>
        <source>The call to revise.</source>
        <translation>Der zu überarbeitende Aufruf.</translation>
    </message>
    <message>
        <source>What to change.</source>
        <translation>Was geändert werden soll.</translation>
    </message>
    <message>
        <source>revise needs one call id (a number)</source>
        <translation>revise braucht eine Aufruf-ID (eine Zahl)</translation>
    </message>
    <message>
        <source>revise needs --correction TEXT</source>
        <translation>revise braucht --correction TEXT</translation>
    </message>
    <message>
        <source>no call %1 in %2</source>
        <translation>kein Aufruf %1 in %2</translation>
    </message>
    <message>
        <source>JSON Lines: one input per line.</source>
        <translation>JSON Lines: eine Eingabe pro Zeile.</translation>
    </message>
    <message>
        <source>Write the result lines here instead of stdout.</source>
        <translation>Die Ergebniszeilen hierhin statt auf die Standardausgabe schreiben.</translation>
    </message>
    <message>
        <source>Usage: callscope-cli show CALL_ID [--db PATH]

Prints the stored call as JSON.
</source>
        <translation>Aufruf: callscope-cli show AUFRUF_ID [--db PFAD]

Gibt den gespeicherten Aufruf als JSON aus.
</translation>
    </message>
    <message>
        <source>validate: expected SCHEMA.json INSTANCE.json (see validate --help)</source>
        <translation>validate: SCHEMA.json INSTANZ.json erwartet (siehe validate --help)</translation>
    </message>
    <message>
        <source>%1: cannot compile the schema:
  %2</source>
        <translation>%1: das Schema kann nicht kompiliert werden:
  %2</translation>
    </message>
    <message>
        <source>Run a structured call unattended; result as JSON.</source>
        <translation>Einen strukturierten Aufruf unbeaufsichtigt ausführen; Ergebnis als JSON.</translation>
    </message>
    <message>
        <source>Revise a stored call with a correction.</source>
        <translation>Einen gespeicherten Aufruf mit einer Korrektur überarbeiten.</translation>
    </message>
    <message>
        <source>Lint a spec for an engine type; findings as JSON.</source>
        <translation>Eine Spezifikation für einen Engine-Typ prüfen; Befunde als JSON.</translation>
    </message>
    <message>
        <source>Manage engine profiles; keys go to the OS keychain.</source>
        <translation>Engine-Profile verwalten; Schlüssel kommen in den Schlüsselbund des Systems.</translation>
    </message>
    <message>
        <source>Validate a JSON document against a JSON Schema 2020-12.</source>
        <translation>Ein JSON-Dokument gegen ein JSON Schema 2020-12 validieren.</translation>
    </message>
    <message>
        <source>Print a stored call, every field, as JSON.</source>
        <translation>Einen gespeicherten Aufruf mit allen Feldern als JSON ausgeben.</translation>
    </message>
    <message>
        <source>List stored calls, newest first, as a JSON array.</source>
        <translation>Gespeicherte Aufrufe, die neuesten zuerst, als JSON-Array auflisten.</translation>
    </message>
    <message>
        <source>Export a call with its revisions, or a session, to JSON.</source>
        <translation>Einen Aufruf mit seinen Revisionen oder eine Sitzung nach JSON exportieren.</translation>
    </message>
    <message>
        <source>Import an export document; prints the new ids.</source>
        <translation>Ein Exportdokument importieren; gibt die neuen IDs aus.</translation>
    </message>
    <message>
        <source>Usage: callscope-cli COMMAND [OPTIONS]

Runs, inspects and stores LLM structured calls without the GUI.
Data goes to stdout as JSON; messages go to stderr.

Commands:
</source>
        <translation>Aufruf: callscope-cli BEFEHL [OPTIONEN]

Führt strukturierte LLM-Aufrufe ohne Oberfläche aus, untersucht und speichert sie.
Daten gehen als JSON auf die Standardausgabe, Meldungen auf die Standardfehlerausgabe.

Befehle:
</translation>
    </message>
    <message>
        <source>
Options:
  --help       Show this help.
  --version    Show the version.
</source>
        <translation>
Optionen:
  --help       Diese Hilfe anzeigen.
  --version    Die Version anzeigen.
</translation>
    </message>
    <message>
        <source>unknown command &apos;%1&apos; (see --help)</source>
        <translation>unbekannter Befehl „%1“ (siehe --help)</translation>
    </message>
    <message>
        <source>%1 must be a positive number, not &apos;%2&apos;</source>
        <translation>%1 muss eine positive Zahl sein, nicht „%2“</translation>
    </message>
    <message>
        <source>The experiment file.</source>
        <translation>Die Experimentdatei.</translation>
    </message>
    <message>
        <source>Calls in flight at once (default: the experiment&apos;s, else 4).</source>
        <translation>Gleichzeitig laufende Aufrufe (Standard: der Wert des Experiments, sonst 4).</translation>
    </message>
    <message>
        <source>Write one JSON line per run here.</source>
        <translation>Eine JSON-Zeile je Lauf hierhin schreiben.</translation>
    </message>
    <message>
        <source>Write a JUnit XML report here.</source>
        <translation>Einen JUnit-XML-Bericht hierhin schreiben.</translation>
    </message>
    <message>
        <source>Continue this stored experiment.</source>
        <translation>Dieses gespeicherte Experiment fortsetzen.</translation>
    </message>
    <message>
        <source>Run only this case (repeatable).</source>
        <translation>Nur diesen Fall ausführen (mehrfach angebbar).</translation>
    </message>
    <message>
        <source>A price table (JSON) instead of the one in the settings or shipped.</source>
        <translation>Eine Preistabelle (JSON) statt der aus den Einstellungen oder der mitgelieferten.</translation>
    </message>
    <message>
        <source>eval needs exactly one experiment file (see eval --help)</source>
        <translation>eval braucht genau eine Experimentdatei (siehe eval --help)</translation>
    </message>
    <message>
        <source>--jobs needs a whole number from 1 to 256</source>
        <translation>--jobs braucht eine ganze Zahl von 1 bis 256</translation>
    </message>
    <message>
        <source>--resume needs an experiment id (a number)</source>
        <translation>--resume braucht eine Experiment-ID (eine Zahl)</translation>
    </message>
    <message>
        <source>%1 is not a usable experiment:</source>
        <translation>%1 ist kein verwendbares Experiment:</translation>
    </message>
    <message>
        <source>--only %1: the dataset has no case with that id</source>
        <translation>--only %1: der Datensatz hat keinen Fall mit dieser ID</translation>
    </message>
    <message>
        <source>there is no experiment %1 in %2</source>
        <translation>es gibt kein Experiment %1 in %2</translation>
    </message>
    <message>
        <source>%1 changed since experiment %2 started; resuming would mix two experiments. Run without --resume to start a new one.</source>
        <translation>%1 hat sich seit dem Start von Experiment %2 geändert; Fortsetzen würde zwei Experimente vermischen. Lassen Sie --resume weg, um ein neues zu beginnen.</translation>
    </message>
    <message>
        <source>cannot store the experiment: %1</source>
        <translation>das Experiment kann nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>eval: %1/%2 runs done, %3 not passed, %4 in flight</source>
        <translation>eval: %1/%2 Läufe erledigt, %3 nicht bestanden, %4 laufend</translation>
    </message>
    <message>
        <source>eval: stopping; cancelling the calls in flight</source>
        <translation>eval: wird beendet; die laufenden Aufrufe werden abgebrochen</translation>
    </message>
    <message>
        <source>to run what is left: callscope-cli eval %1 --resume %2%3</source>
        <translation>um den Rest auszuführen: callscope-cli eval %1 --resume %2%3</translation>
    </message>
    <message>
        <source>Calls in flight at once (default 4).</source>
        <translation>Gleichzeitig laufende Aufrufe (Standard 4).</translation>
    </message>
    <message>
        <source>Continue the newest batch of this spec and inputs file.</source>
        <translation>Den neuesten Batch dieser Spezifikation und Eingabedatei fortsetzen.</translation>
    </message>
    <message>
        <source>usage: batch SPEC.json --inputs FILE.jsonl [--jobs N] [--resume] [--out FILE.jsonl] [--db PATH]</source>
        <translation>Aufruf: batch SPEZ.json --inputs DATEI.jsonl [--jobs N] [--resume] [--out DATEI.jsonl] [--db PFAD]</translation>
    </message>
    <message>
        <source>batch: the engine is limited to %1 calls at once (settings or its profile), so at most %1 of the %2 jobs run on it</source>
        <translation>batch: die Engine ist auf %1 gleichzeitige Aufrufe begrenzt (Einstellungen oder ihr Profil), daher laufen höchstens %1 der %2 Jobs auf ihr</translation>
    </message>
    <message>
        <source>the spec %1 changed since batch %2 was started; resuming would mix two specs. Run without --resume to start a new batch.</source>
        <translation>die Spezifikation %1 hat sich seit dem Start von Batch %2 geändert; Fortsetzen würde zwei Spezifikationen vermischen. Lassen Sie --resume weg, um einen neuen Batch zu beginnen.</translation>
    </message>
    <message>
        <source>the inputs file %1 changed since batch %2 was started; its lines may mean other inputs now. Run without --resume to start a new batch.</source>
        <translation>die Eingabedatei %1 hat sich seit dem Start von Batch %2 geändert; ihre Zeilen können jetzt andere Eingaben bedeuten. Lassen Sie --resume weg, um einen neuen Batch zu beginnen.</translation>
    </message>
    <message>
        <source>batch %1: resuming, %2 of %3 inputs already completed</source>
        <translation>batch %1: wird fortgesetzt, %2 von %3 Eingaben bereits abgeschlossen</translation>
    </message>
    <message>
        <source>batch: nothing to resume for these files, starting a new batch</source>
        <translation>batch: für diese Dateien gibt es nichts fortzusetzen, ein neuer Batch wird begonnen</translation>
    </message>
    <message>
        <source>cannot store the batch: %1</source>
        <translation>der Batch kann nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>batch: %1/%2 done, %3 failed, %4 in flight, %5 calls/s, ETA %6</source>
        <translation>batch: %1/%2 erledigt, %3 fehlgeschlagen, %4 laufend, %5 Aufrufe/s, Restzeit %6</translation>
    </message>
    <message>
        <source>batch: stopping; cancelling the calls in flight</source>
        <translation>batch: wird beendet; die laufenden Aufrufe werden abgebrochen</translation>
    </message>
    <message>
        <source>batch %1: %2 inputs, %3 completed, %4 not completed</source>
        <translation>batch %1: %2 Eingaben, %3 abgeschlossen, %4 nicht abgeschlossen</translation>
    </message>
    <message>
        <source>to run what is left: %1</source>
        <translation>um den Rest auszuführen: %1</translation>
    </message>
    <message>
        <source>Run a spec on every line of a JSON Lines file, many calls at once.</source>
        <translation>Eine Spezifikation für jede Zeile einer JSON-Lines-Datei ausführen, viele Aufrufe gleichzeitig.</translation>
    </message>
    <message>
        <source>Run an experiment: a dataset, variants, repeats and assertions.</source>
        <translation>Ein Experiment ausführen: ein Datensatz, Varianten, Wiederholungen und Zusicherungen.</translation>
    </message>
    <message>
        <source>Write a self-contained HTML report (the matrix) here.</source>
        <translation>Einen eigenständigen HTML-Bericht (die Matrix) hierhin schreiben.</translation>
    </message>
    <message>
        <source>Through a batch API: send again the requests of provider batches whose creation got no answer (they may exist at the provider).</source>
        <translation>Über eine Batch-API: die Anfragen von Anbieter-Batches erneut senden, deren Anlegen ohne Antwort blieb (sie könnten beim Anbieter existieren).</translation>
    </message>
    <message>
        <source>eval: the provider batches keep running; --resume picks them up</source>
        <translation>eval: die Anbieter-Batches laufen weiter; --resume holt sie ab</translation>
    </message>
    <message>
        <source>eval: cancelling the provider batches</source>
        <translation>eval: die Anbieter-Batches werden abgebrochen</translation>
    </message>
    <message>
        <source>eval: stopping; press Ctrl+C again within 3 s to cancel the provider batches as well</source>
        <translation>eval: wird beendet; drücken Sie innerhalb von 3 s erneut Strg+C, um auch die Anbieter-Batches abzubrechen</translation>
    </message>
    <message>
        <source>mcp: unknown verb &apos;%1&apos; (tools or call)</source>
        <translation>mcp: unbekanntes Verb „%1“ (tools oder call)</translation>
    </message>
    <message>
        <source>mcp: --url %1 is not an http:// or https:// URL</source>
        <translation>mcp: --url %1 ist keine http://- oder https://-URL</translation>
    </message>
    <message>
        <source>mcp: --header %1 is not NAME:VALUE</source>
        <translation>mcp: --header %1 hat nicht die Form NAME:WERT</translation>
    </message>
    <message>
        <source>mcp %1: give SPEC.json SERVER or --url URL</source>
        <translation>mcp %1: geben Sie SPEZ.json SERVER oder --url URL an</translation>
    </message>
    <message>
        <source>%1 is not a valid spec:</source>
        <translation>%1 ist keine gültige Spezifikation:</translation>
    </message>
    <message>
        <source>%1 has no MCP server named %2 (it has: %3)</source>
        <translation>%1 hat keinen MCP-Server namens %2 (vorhanden: %3)</translation>
    </message>
    <message>
        <source>mcp call: give exactly one TOOL name</source>
        <translation>mcp call: geben Sie genau einen WERKZEUG-Namen an</translation>
    </message>
    <message>
        <source>mcp call: --args is not a JSON object (%1)</source>
        <translation>mcp call: --args ist kein JSON-Objekt (%1)</translation>
    </message>
    <message>
        <source>another JSON value</source>
        <translation>ein anderer JSON-Wert</translation>
    </message>
    <message>
        <source>mcp tools: unexpected argument %1</source>
        <translation>mcp tools: unerwartetes Argument %1</translation>
    </message>
    <message>
        <source>mcp: --timeout must be a positive number of milliseconds</source>
        <translation>mcp: --timeout muss eine positive Anzahl Millisekunden sein</translation>
    </message>
    <message>
        <source>signing in: opened %1</source>
        <translation>Anmeldung: %1 geöffnet</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <source>MCP server %1 has no tool %2 (it lists: %3)</source>
        <translation>MCP-Server %1 hat kein Werkzeug %2 (er nennt: %3)</translation>
    </message>
    <message>
        <source>Revise on this engine profile instead of the call&apos;s own engine.</source>
        <translation>Auf diesem Engine-Profil statt auf der eigenen Engine des Aufrufs überarbeiten.</translation>
    </message>
    <message>
        <source>batch %1 is %2: wait for it to end or stop it, then resume</source>
        <translation>batch %1 ist %2: Warten Sie, bis er endet, oder stoppen Sie ihn, und setzen Sie dann fort</translation>
    </message>
    <message>
        <source>List or call the tools of an MCP server, local or remote.</source>
        <translation>Die Werkzeuge eines lokalen oder entfernten MCP-Servers auflisten oder aufrufen.</translation>
    </message>
    <message>
        <source>%1 cannot run, because of schemas that are not valid JSON Schema:</source>
        <translation>%1 kann nicht ausgeführt werden, weil Schemas darin kein gültiges JSON Schema sind:</translation>
    </message>
    <message>
        <source>%1 (keyword &quot;%2&quot;): %3</source>
        <translation>%1 (Schlüsselwort „%2“): %3</translation>
    </message>
    <message>
        <source>experiment %1 is %2: wait for it to end or stop it, then resume</source>
        <translation>Experiment %1 ist %2: warten Sie, bis es endet, oder halten Sie es an und setzen Sie es dann fort</translation>
    </message>
    <message>
        <source>the history cannot store the results (%1); no more calls are started, the replies of the calls in flight go to %2</source>
        <translation>der Verlauf kann die Ergebnisse nicht speichern (%1); es werden keine weiteren Aufrufe gestartet, die Antworten der laufenden Aufrufe gehen nach %2</translation>
    </message>
    <message>
        <source>cannot write %1: %2; the experiment stops starting calls (what runs is stored)</source>
        <translation>%1 kann nicht geschrieben werden: %2; das Experiment startet keine weiteren Aufrufe (was läuft, wird gespeichert)</translation>
    </message>
    <message numerus="yes">
        <source>eval: %n answer(s) could not be stored in the history; those kept in %1 are stored by the next run</source>
        <translation>
            <numerusform>eval: %n Antwort konnte nicht im Verlauf gespeichert werden; die in %1 aufbewahrten werden beim nächsten Lauf gespeichert</numerusform>
            <numerusform>eval: %n Antworten konnten nicht im Verlauf gespeichert werden; die in %1 aufbewahrten werden beim nächsten Lauf gespeichert</numerusform>
        </translation>
    </message>
    <message>
        <source>history %1: unexpected argument &apos;%2&apos;</source>
        <translation>history %1: unerwartetes Argument „%2“</translation>
    </message>
    <message>
        <source>the check found problems: %1</source>
        <translation>die Prüfung fand Probleme: %1</translation>
    </message>
    <message>
        <source>the old file was kept as %1</source>
        <translation>die alte Datei wurde als %1 aufbewahrt</translation>
    </message>
    <message>
        <source>Usage: callscope-cli mcp tools (SPEC.json SERVER | --url URL) [OPTIONS]
       callscope-cli mcp call (SPEC.json SERVER | --url URL) TOOL --args JSON [OPTIONS]

Lists the tools of an MCP server, or calls one, and prints JSON. The server is an entry
of a spec&apos;s mcp_servers, or a remote server given by its URL.

Options:
  --url URL                 a remote server (Streamable HTTP, HTTP+SSE as fallback)
  --header NAME:VALUE       send this header with every request (repeatable)
  --bearer-env VAR          send the token in VAR as a bearer token
  --oauth                   sign in with OAuth when the server asks
  --client-id ID            a pre-registered OAuth client
  --client-secret-env VAR   that client&apos;s secret, from the environment
  --client-metadata-url URL a client ID metadata document, used when the server supports it
  --scope SCOPES            the OAuth scopes to ask for
  --browser-command CMD     opens the sign-in URL (default: the mcp/browser_command
                            setting, else xdg-open)
  --args JSON               call: the tool&apos;s arguments (a JSON object)
  --timeout MS              how long start-up and the call may take (default 60000)
  --trust                   start the spec&apos;s server even though the file is not trusted
  --allow-key-env NAME      allow this variable as a key (bearer_env)

Exit codes: 0 done, 1 the server failed or the result is an error, 2 bad arguments.
</source>
        <translation>Aufruf: callscope-cli mcp tools (SPEC.json SERVER | --url URL) [OPTIONEN]
       callscope-cli mcp call (SPEC.json SERVER | --url URL) TOOL --args JSON [OPTIONEN]

Listet die Werkzeuge eines MCP-Servers oder ruft eines auf und gibt JSON aus. Der Server ist ein Eintrag
aus mcp_servers einer Spezifikation oder ein entfernter Server, angegeben durch seine URL.

Optionen:
  --url URL                 ein entfernter Server (Streamable HTTP, HTTP+SSE als Rückfall)
  --header NAME:VALUE       diesen Header mit jeder Anfrage senden (wiederholbar)
  --bearer-env VAR          das Token in VAR als Bearer-Token senden
  --oauth                   mit OAuth anmelden, wenn der Server danach fragt
  --client-id ID            ein vorab registrierter OAuth-Client
  --client-secret-env VAR   das Geheimnis dieses Clients, aus der Umgebung
  --client-metadata-url URL ein Client-ID-Metadatendokument, wenn der Server es unterstützt
  --scope SCOPES            die OAuth-Scopes, die angefragt werden
  --browser-command CMD     öffnet die Anmelde-URL (Standard: die Einstellung
                            mcp/browser_command, sonst xdg-open)
  --args JSON               call: die Argumente des Werkzeugs (ein JSON-Objekt)
  --timeout MS              wie lange Start und Aufruf dauern dürfen (Standard 60000)
  --trust                   den Server der Spezifikation starten, obwohl der Datei nicht vertraut wird
  --allow-key-env NAME      diese Variable als Schlüssel erlauben (bearer_env)

Exit-Codes: 0 erledigt, 1 der Server schlug fehl oder das Ergebnis ist ein Fehler, 2 falsche Argumente.
</translation>
    </message>
    <message>
        <source>Usage: callscope-cli batch SPEC.json --inputs FILE.jsonl [--jobs N] [--resume] [--out FILE.jsonl] [--db PATH] [--allow-tool NAME]... [--trust]

Runs the spec on every line of the inputs file with N calls in flight (default 4) and prints one result line per input line, in input order.
A line is a JSON string or {&quot;input&quot;, &quot;attachments&quot;: [paths], &quot;metadata&quot;}.
The batch is stored: --resume runs only the lines that have no completed call yet. Ctrl+C cancels what is in flight and prints how to resume.
Exit codes: 0 every input completed, 1 otherwise, 2 bad arguments.
</source>
        <translation>Aufruf: callscope-cli batch SPEC.json --inputs FILE.jsonl [--jobs N] [--resume] [--out FILE.jsonl] [--db PATH] [--allow-tool NAME]... [--trust]

Führt die Spezifikation für jede Zeile der Eingabedatei aus, mit N Aufrufen gleichzeitig (Standard 4), und gibt je Eingabezeile eine Ergebniszeile aus, in der Reihenfolge der Eingabe.
Eine Zeile ist ein JSON-String oder {&quot;input&quot;, &quot;attachments&quot;: [Pfade], &quot;metadata&quot;}.
Der Stapel wird gespeichert: --resume führt nur die Zeilen aus, die noch keinen abgeschlossenen Aufruf haben. Strg+C bricht ab, was läuft, und zeigt, wie es weitergeht.
Exit-Codes: 0 jede Eingabe abgeschlossen, 1 sonst, 2 falsche Argumente.
</translation>
    </message>
    <message>
        <source>cannot write %1: %2; the batch stops starting calls (what runs is stored)</source>
        <translation>%1 kann nicht geschrieben werden: %2; der Stapel startet keine weiteren Aufrufe (was läuft, wird gespeichert)</translation>
    </message>
    <message numerus="yes">
        <source>batch %1: %n answer(s) could not be stored in the history; those kept in %2 are stored by the next run</source>
        <translation>
            <numerusform>batch %1: %n Antwort konnte nicht im Verlauf gespeichert werden; die in %2 aufbewahrten werden beim nächsten Lauf gespeichert</numerusform>
            <numerusform>batch %1: %n Antworten konnten nicht im Verlauf gespeichert werden; die in %2 aufbewahrten werden beim nächsten Lauf gespeichert</numerusform>
        </translation>
    </message>
    <message>
        <source>nothing is trusted under %1</source>
        <translation>unter %1 wird nichts vertraut</translation>
    </message>
    <message>
        <source>Check the history, back it up, or bring a damaged one back.</source>
        <translation>Den Verlauf prüfen, sichern oder einen beschädigten zurückholen.</translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) that an earlier run could not store were stored from %1</source>
        <translation>
            <numerusform>%n Aufruf, den ein früherer Lauf nicht speichern konnte, wurde aus %1 gespeichert</numerusform>
            <numerusform>%n Aufrufe, die ein früherer Lauf nicht speichern konnte, wurden aus %1 gespeichert</numerusform>
        </translation>
    </message>
    <message>
        <source>there is no backup yet</source>
        <translation>es gibt noch keine Sicherung</translation>
    </message>
    <message>
        <source>newest good backup: %1, %2 calls</source>
        <translation>neueste gute Sicherung: %1, %2 Aufrufe</translation>
    </message>
    <message>
        <source>the history %1 is damaged. Ways back (each keeps the damaged file beside it, renamed):
  callscope-cli history restore --db %1   put back the backup (%2)
  callscope-cli history recover --db %1   copy what can still be read into a new history
  callscope-cli history new --db %1       start an empty history</source>
        <translation>der Verlauf %1 ist beschädigt. Wege zurück (jeder behält die beschädigte Datei daneben, umbenannt):
  callscope-cli history restore --db %1   die Sicherung zurücklegen (%2)
  callscope-cli history recover --db %1   das noch Lesbare in einen neuen Verlauf kopieren
  callscope-cli history new --db %1       einen leeren Verlauf beginnen</translation>
    </message>
    <message>
        <source>Compare with this stored experiment run (an id, or latest: the newest earlier run of the same name); exit 1 on a significant regression or a regression of a critical case.</source>
        <translation>Mit diesem gespeicherten Experimentlauf vergleichen (eine ID, oder latest: der neueste frühere Lauf mit demselben Namen); Exit-Code 1 bei einer signifikanten Verschlechterung oder der Verschlechterung eines kritischen Falls.</translation>
    </message>
    <message>
        <source>Exit 1 when a variant&apos;s pass rate is below RATE (0 to 1, or a percentage such as 85%).</source>
        <translation>Exit-Code 1, wenn die Bestehensquote einer Variante unter RATE liegt (0 bis 1, oder ein Prozentsatz wie 85%).</translation>
    </message>
    <message>
        <source>Send every request; neither read nor fill the response cache.</source>
        <translation>Jede Anfrage senden; den Antwort-Cache weder lesen noch füllen.</translation>
    </message>
    <message>
        <source>Send every request and replace what the response cache holds for it.</source>
        <translation>Jede Anfrage senden und ersetzen, was der Antwort-Cache für sie hält.</translation>
    </message>
    <message>
        <source>--no-cache and --refresh-cache cannot be used together</source>
        <translation>--no-cache und --refresh-cache können nicht zusammen verwendet werden</translation>
    </message>
    <message>
        <source>--fail-under needs a pass rate from 0 to 1, or a percentage such as 85%</source>
        <translation>--fail-under braucht eine Bestehensquote von 0 bis 1, oder einen Prozentsatz wie 85%</translation>
    </message>
    <message>
        <source>--baseline: %1</source>
        <translation>--baseline: %1</translation>
    </message>
    <message>
        <source>regression of a critical case against experiment %1: %2</source>
        <translation>Verschlechterung eines kritischen Falls gegenüber Experiment %1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%n case(s) regressed against experiment %1, more than chance explains (see &quot;baseline&quot;)</source>
        <translation>
            <numerusform>%n Fall hat sich gegenüber Experiment %1 verschlechtert, mehr als der Zufall erklärt (siehe &quot;baseline&quot;)</numerusform>
            <numerusform>%n Fälle haben sich gegenüber Experiment %1 verschlechtert, mehr als der Zufall erklärt (siehe &quot;baseline&quot;)</numerusform>
        </translation>
    </message>
    <message>
        <source>variant %1 passes %2% of its cases, under %3%</source>
        <translation>Variante %1 besteht %2 % ihrer Fälle, unter %3 %</translation>
    </message>
    <message>
        <source>batch %1: %2 prompt tokens (%3 uncached, %4 read from the cache, %5 written to it), %6 output</source>
        <translation>Batch %1: %2 Prompt-Token (%3 nicht aus dem Cache, %4 aus dem Cache gelesen, %5 in ihn geschrieben), %6 Ausgabe</translation>
    </message>
    <message>
        <source>; $%1, $%2 without the cache</source>
        <translation>; $%1, $%2 ohne den Cache</translation>
    </message>
    <message>
        <source>%1: expected one CALL_ID (see %1 --help)</source>
        <translation>%1: genau eine AUFRUF_ID erwartet (siehe %1 --help)</translation>
    </message>
    <message>
        <source>Usage: callscope-cli cache CALL_ID [--db PATH]

Prints the prompt cache view of a stored call as JSON.
</source>
        <translation>Aufruf: callscope-cli cache AUFRUF_ID [--db PFAD]

Gibt die Prompt-Cache-Ansicht eines gespeicherten Aufrufs als JSON aus.
</translation>
    </message>
    <message>
        <source>Usage: callscope-cli trust list
       callscope-cli trust add FILE
       callscope-cli trust revoke (PATH | --all)

Lists the files trusted to run programs or read key variables on this computer,
trusts a spec or experiment file as it is now (an edit, or the same content in
another folder, is not trusted), or forgets them: PATH is a trusted file or a
folder (every file trusted in it). add prints what the file will run.
Exit codes: 0 done, 1 the list could not be written, 2 bad arguments, a file that
does not load, or nothing trusted under PATH.
</source>
        <translation>Aufruf: callscope-cli trust list
       callscope-cli trust add FILE
       callscope-cli trust revoke (PATH | --all)

Listet die Dateien, denen auf diesem Rechner vertraut wird, Programme auszuführen oder
Schlüsselvariablen zu lesen, vertraut einer Spezifikations- oder Experimentdatei so, wie
sie jetzt ist (eine Änderung, oder derselbe Inhalt in einem anderen Ordner, ist nicht
vertraut), oder vergisst sie: PATH ist eine vertraute Datei oder ein Ordner (jede darin
vertraute Datei). add gibt aus, was die Datei ausführen wird.
Exit-Codes: 0 erledigt, 1 die Liste konnte nicht geschrieben werden, 2 falsche Argumente,
eine Datei, die sich nicht laden lässt, oder nichts unter PATH vertraut.
</translation>
    </message>
    <message>
        <source>%1 does not load, so it cannot be trusted:
  %2</source>
        <translation>%1 lässt sich nicht laden, daher kann ihr nicht vertraut werden:
  %2</translation>
    </message>
    <message>
        <source>usage: trust list | trust add FILE | trust revoke (PATH | --all)</source>
        <translation>Aufruf: trust list | trust add FILE | trust revoke (PATH | --all)</translation>
    </message>
    <message>
        <source>Usage: callscope-cli validate SCHEMA.json INSTANCE.json [--format-assertion]
                              [--dialect NAME]

Validates a JSON document against a JSON Schema and prints
{&quot;valid&quot;, &quot;errors&quot;: [{&quot;instance_path&quot;, &quot;keyword_location&quot;, &quot;message&quot;}]}.
The schema is read in the dialect its &quot;$schema&quot; names (draft-04, draft-06,
draft-07, 2019-09 or 2020-12); without one it is 2020-12.
Relative $refs resolve against the schema file&apos;s folder; nothing is fetched
from the network.

Options:
  --format-assertion   treat &quot;format&quot; (date-time, date, time, duration, email,
                       hostname, ipv4, ipv6, uri, uuid) as an assertion
  --dialect NAME       read the schema as draft-04, draft-06, draft-07, 2019-09
                       or 2020-12, whatever its &quot;$schema&quot; says (documents it
                       refers to keep their own)

Exit codes: 0 valid, 1 invalid, 2 bad arguments, an unreadable file or an
invalid schema.
</source>
        <translation>Aufruf: callscope-cli validate SCHEMA.json INSTANZ.json [--format-assertion]
                              [--dialect NAME]

Validiert ein JSON-Dokument gegen ein JSON Schema und gibt
{&quot;valid&quot;, &quot;errors&quot;: [{&quot;instance_path&quot;, &quot;keyword_location&quot;, &quot;message&quot;}]} aus.
Das Schema wird in dem Dialekt gelesen, den sein &quot;$schema&quot; nennt (draft-04, draft-06,
draft-07, 2019-09 oder 2020-12); ohne eines ist es 2020-12.
Relative $refs werden gegen den Ordner der Schemadatei aufgelöst; aus dem Netz
wird nichts geladen.

Optionen:
  --format-assertion   &quot;format&quot; (date-time, date, time, duration, email,
                       hostname, ipv4, ipv6, uri, uuid) als Zusicherung behandeln
  --dialect NAME       das Schema als draft-04, draft-06, draft-07, 2019-09
                       oder 2020-12 lesen, was auch immer sein &quot;$schema&quot; sagt
                       (Dokumente, auf die es verweist, behalten ihren eigenen)

Exit-Codes: 0 gültig, 1 ungültig, 2 falsche Argumente, eine unlesbare Datei oder ein
ungültiges Schema.
</translation>
    </message>
    <message>
        <source>validate: --dialect needs a name: draft-04, draft-06, draft-07, 2019-09 or 2020-12</source>
        <translation>validate: --dialect braucht einen Namen: draft-04, draft-06, draft-07, 2019-09 oder 2020-12</translation>
    </message>
    <message>
        <source>validate: unknown dialect %1; use draft-04, draft-06, draft-07, 2019-09 or 2020-12</source>
        <translation>validate: unbekannter Dialekt %1; verwenden Sie draft-04, draft-06, draft-07, 2019-09 oder 2020-12</translation>
    </message>
    <message>
        <source>%1: not a valid JSON Schema (%2):</source>
        <translation>%1: kein gültiges JSON Schema (%2):</translation>
    </message>
    <message>
        <source>Show where a call&apos;s prompt cache hit, missed and why, as JSON.</source>
        <translation>Zeigen, wo der Prompt-Cache eines Aufrufs traf, verfehlte und warum, als JSON.</translation>
    </message>
    <message>
        <source>List, add or forget the files trusted to run programs (docs/trust.md).</source>
        <translation>Die Dateien auflisten, hinzufügen oder vergessen, denen vertraut wird, Programme auszuführen (docs/trust.md).</translation>
    </message>
    <message>
        <source>--otlp needs an endpoint (for example http://localhost:4318)</source>
        <translation>--otlp braucht einen Endpunkt (zum Beispiel http://localhost:4318)</translation>
    </message>
    <message numerus="yes">
        <source>OTLP export: %n span(s) not delivered (see docs/telemetry.md)</source>
        <translation>
            <numerusform>OTLP-Export: %n Span nicht zugestellt (siehe docs/telemetry.md)</numerusform>
            <numerusform>OTLP-Export: %n Spans nicht zugestellt (siehe docs/telemetry.md)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: unknown option %2 (see %1 --help)</source>
        <translation>%1: unbekannte Option %2 (siehe %1 --help)</translation>
    </message>
    <message numerus="yes">
        <source>; round %1, %n provider batch(es) open</source>
        <translation>
            <numerusform>; Runde %1, %n Provider-Batch offen</numerusform>
            <numerusform>; Runde %1, %n Provider-Batches offen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n request(s) waiting for %1 s</source>
        <translation>
            <numerusform>, %n Anfrage wartet seit %1 s</numerusform>
            <numerusform>, %n Anfragen warten seit %1 s</numerusform>
        </translation>
    </message>
    <message>
        <source>The call to export.</source>
        <translation>Der zu exportierende Aufruf.</translation>
    </message>
    <message>
        <source>Export this session instead.</source>
        <translation>Stattdessen diese Sitzung exportieren.</translation>
    </message>
    <message>
        <source>The call alone, without its revisions.</source>
        <translation>Nur der Aufruf, ohne seine Überarbeitungen.</translation>
    </message>
    <message>
        <source>Write the document here instead of stdout.</source>
        <translation>Das Dokument hierhin schreiben statt auf stdout.</translation>
    </message>
    <message>
        <source>Only calls started on or after this date.</source>
        <translation>Nur Aufrufe, die an oder nach diesem Datum begonnen haben.</translation>
    </message>
    <message>
        <source>Only calls of this kind.</source>
        <translation>Nur Aufrufe dieser Art.</translation>
    </message>
    <message>
        <source>Only the calls of this experiment.</source>
        <translation>Nur die Aufrufe dieses Experiments.</translation>
    </message>
    <message>
        <source>export-otlp: unexpected argument %1 (see export-otlp --help)</source>
        <translation>export-otlp: unerwartetes Argument %1 (siehe export-otlp --help)</translation>
    </message>
    <message>
        <source>export-otlp: no endpoint: give --otlp ENDPOINT or set OTEL_EXPORTER_OTLP_ENDPOINT</source>
        <translation>export-otlp: kein Endpunkt: --otlp ENDPUNKT angeben oder OTEL_EXPORTER_OTLP_ENDPOINT setzen</translation>
    </message>
    <message>
        <source>export-otlp: --since &apos;%1&apos; is not a date (YYYY-MM-DD) or an ISO date and time</source>
        <translation>export-otlp: --since &apos;%1&apos; ist kein Datum (JJJJ-MM-TT) und keine ISO-Angabe von Datum und Uhrzeit</translation>
    </message>
    <message>
        <source>The backup to put back.</source>
        <translation>Die Sicherung, die zurückgespielt wird.</translation>
    </message>
    <message>
        <source>history %1 works on a history file; a PostgreSQL server is checked and backed up with its own tools (pg_dump, pg_amcheck)</source>
        <translation>history %1 arbeitet mit einer Verlaufsdatei; ein PostgreSQL-Server wird mit seinen eigenen Werkzeugen geprüft und gesichert (pg_dump, pg_amcheck)</translation>
    </message>
    <message>
        <source>The export document.</source>
        <translation>Das Exportdokument.</translation>
    </message>
    <message>
        <source>Lint for this engine type.</source>
        <translation>Für diesen Engine-Typ prüfen.</translation>
    </message>
    <message>
        <source>Usage: callscope-cli revise CALL_ID --correction TEXT [--engine PROFILE] [--db PATH] [--allow-tool NAME]... [--trust]

Runs the stored call again with the correction added; the result is stored as its revision.
Exit codes: 0 completed, 1 failed, 2 bad arguments or an unknown call, 3 turn limited.
</source>
        <translation>Aufruf: callscope-cli revise AUFRUF_ID --correction TEXT [--engine PROFIL] [--db PFAD] [--allow-tool NAME]... [--trust]

Führt den gespeicherten Aufruf mit der Korrektur erneut aus; das Ergebnis wird als seine Überarbeitung gespeichert.
Exit-Codes: 0 abgeschlossen, 1 fehlgeschlagen, 2 falsche Argumente oder unbekannter Aufruf, 3 durch das Zuglimit beendet.
</translation>
    </message>
    <message>
        <source>The call.</source>
        <translation>Der Aufruf.</translation>
    </message>
    <message>
        <source>revoke: forget every trusted file.</source>
        <translation>revoke: jeder vertrauten Datei das Vertrauen entziehen.</translation>
    </message>
    <message>
        <source>The schema.</source>
        <translation>Das Schema.</translation>
    </message>
    <message>
        <source>The document to validate.</source>
        <translation>Das zu prüfende Dokument.</translation>
    </message>
    <message>
        <source>Treat &quot;format&quot; as an assertion.</source>
        <translation>„format“ als Zusicherung behandeln.</translation>
    </message>
    <message>
        <source>Read the schema in this dialect.</source>
        <translation>Das Schema in diesem Dialekt lesen.</translation>
    </message>
    <message>
        <source>Send stored calls to an OpenTelemetry collector as spans.</source>
        <translation>Gespeicherte Aufrufe als Spans an einen OpenTelemetry-Collector senden.</translation>
    </message>
    <message>
        <source>The history database (without it, the default one).</source>
        <translation>Die Verlaufsdatenbank (ohne Angabe die Standarddatenbank).</translation>
    </message>
    <message>
        <source>Print the structured answer as it streams: one JSON line on stderr per update, with each field&apos;s state.</source>
        <translation>Die strukturierte Antwort während des Streamens ausgeben: eine JSON-Zeile auf stderr pro Aktualisierung, mit dem Zustand jedes Felds.</translation>
    </message>
    <message>
        <source>Usage: callscope-cli run SPEC.json [--input TEXT | --input-file F] [--attach FILE]... [--session ID] [--db PATH] [--allow-tool NAME]... [--no-store] [--partial] [--trust] [--allow-key-env NAME]...

Runs the spec once, unattended: tools that need approval are refused unless allowed with --allow-tool. A file that would start programs or read a variable that is not a provider key runs only when trusted (--trust, CALLSCOPE_TRUST=1).
Exit codes: 0 completed, 1 failed, 2 bad arguments or an invalid spec, 3 turn limited.
</source>
        <translation>Aufruf: callscope-cli run SPEC.json [--input TEXT | --input-file F] [--attach FILE]... [--session ID] [--db PATH] [--allow-tool NAME]... [--no-store] [--partial] [--trust] [--allow-key-env NAME]...

Führt die Spezifikation einmal unbeaufsichtigt aus: Werkzeuge, die eine Freigabe brauchen, werden abgelehnt, sofern sie nicht mit --allow-tool erlaubt sind. Eine Datei, die Programme starten oder eine Variable lesen würde, die kein Anbieterschlüssel ist, läuft nur, wenn ihr vertraut wird (--trust, CALLSCOPE_TRUST=1).
Exit-Codes: 0 abgeschlossen, 1 fehlgeschlagen, 2 falsche Argumente oder ungültige Spezifikation, 3 Rundenlimit erreicht.
</translation>
    </message>
    <message>
        <source>cannot read the labels of experiment %1: %2</source>
        <translation>die Bewertungen von Experiment %1 können nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>What to print: labels.</source>
        <translation>Was ausgegeben wird: labels.</translation>
    </message>
    <message>
        <source>The stored experiment&apos;s id.</source>
        <translation>Die ID des gespeicherten Experiments.</translation>
    </message>
    <message>
        <source>Write the lines to this file instead of standard output.</source>
        <translation>Die Zeilen in diese Datei statt in die Standardausgabe schreiben.</translation>
    </message>
    <message>
        <source>Usage: callscope-cli experiment labels EXPERIMENT_ID [--out FILE.jsonl] [--db PATH]

Prints the labels people gave the experiment&apos;s runs in the review queue, one JSON object per line.
</source>
        <translation>Aufruf: callscope-cli experiment labels EXPERIMENT_ID [--out FILE.jsonl] [--db PATH]

Gibt die Bewertungen aus, die Menschen den Läufen des Experiments in der Prüfwarteschlange gegeben haben, ein JSON-Objekt pro Zeile.
</translation>
    </message>
    <message>
        <source>experiment labels: expected one EXPERIMENT_ID (see experiment --help)</source>
        <translation>experiment labels: genau eine EXPERIMENT_ID erwartet (siehe experiment --help)</translation>
    </message>
    <message>
        <source>Usage: callscope-cli experiment labels EXPERIMENT_ID [--out FILE.jsonl] [--db PATH]
</source>
        <translation>Aufruf: callscope-cli experiment labels EXPERIMENT_ID [--out FILE.jsonl] [--db PATH]
</translation>
    </message>
    <message>
        <source>experiment: expected &quot;labels&quot; (see experiment --help)</source>
        <translation>experiment: &quot;labels&quot; erwartet (siehe experiment --help)</translation>
    </message>
    <message>
        <source>Password for %1: </source>
        <translation>Passwort für %1: </translation>
    </message>
    <message>
        <source>The history server, postgresql://USER@HOST/DB.</source>
        <translation>Der Verlaufsserver, postgresql://BENUTZER@HOST/DB.</translation>
    </message>
    <message>
        <source>Usage: callscope-cli history login URL
       callscope-cli history logout URL

login asks for the password of the PostgreSQL history URL names (without echo on
a terminal, else the first line of standard input), checks it by connecting,
and keeps it in the OS keychain; every command then uses it for that server.
logout removes it. The password is never taken from an argument.
</source>
        <translation>Aufruf: callscope-cli history login URL
        callscope-cli history logout URL

login fragt nach dem Passwort des PostgreSQL-Verlaufs, den URL nennt (ohne Echo auf
einem Terminal, sonst die erste Zeile der Standardeingabe), prüft es durch eine
Verbindung und bewahrt es im Schlüsselbund des Systems auf; jeder Befehl verwendet
es dann für diesen Server. logout entfernt es. Das Passwort wird nie aus einem
Argument gelesen.
</translation>
    </message>
    <message>
        <source>history %1 takes one postgresql:// URL (see history %1 --help)</source>
        <translation>history %1 nimmt eine postgresql://-URL (siehe history %1 --help)</translation>
    </message>
    <message>
        <source>history %1: the URL must not hold the password; it is asked for</source>
        <translation>history %1: die URL darf das Passwort nicht enthalten; es wird abgefragt</translation>
    </message>
    <message>
        <source>cannot remove the password of %1 from the keychain: %2</source>
        <translation>das Passwort von %1 kann nicht aus dem Schlüsselbund entfernt werden: %2</translation>
    </message>
    <message>
        <source>history login: no password given</source>
        <translation>history login: kein Passwort angegeben</translation>
    </message>
    <message>
        <source>history login: %1; the password was not kept</source>
        <translation>history login: %1; das Passwort wurde nicht aufbewahrt</translation>
    </message>
    <message>
        <source>cannot keep the password of %1 in the keychain: %2</source>
        <translation>das Passwort von %1 kann nicht im Schlüsselbund aufbewahrt werden: %2</translation>
    </message>
    <message>
        <source>Usage: callscope-cli import FILE [--db PATH]

Imports an export document; prints the ids as JSON. A call or
session already in the history (the same UUID) is not stored
again, so importing a file twice stores it once.
</source>
        <translation>Aufruf: callscope-cli import DATEI [--db PFAD]

Importiert ein Exportdokument; gibt die IDs als JSON aus. Ein Aufruf oder eine
Sitzung, die schon im Verlauf ist (dieselbe UUID), wird nicht noch einmal
gespeichert; eine zweimal importierte Datei wird also einmal gespeichert.
</translation>
    </message>
    <message>
        <source>Print the labels people gave an experiment&apos;s runs, as JSON Lines.</source>
        <translation>Die Bewertungen ausgeben, die Menschen den Läufen eines Experiments gegeben haben, als JSON Lines.</translation>
    </message>
    <message>
        <source>The promptfoo configuration.</source>
        <translation>Die promptfoo-Konfiguration.</translation>
    </message>
    <message>
        <source>Write the experiment here instead of stdout.</source>
        <translation>Das Experiment hierhin schreiben statt auf stdout.</translation>
    </message>
    <message>
        <source>Write the experiment without the parts Callscope cannot take.</source>
        <translation>Das Experiment ohne die Teile schreiben, die Callscope nicht übernehmen kann.</translation>
    </message>
    <message>
        <source>Usage: callscope-cli convert promptfooconfig.yaml [--out EXPERIMENT.json]
                             [--skip-unsupported]

Reads a promptfoo configuration (prompts, providers, tests, defaultTest and
their assertions) and writes the Callscope experiment it makes: the one
callscope-cli eval runs for the same file. Prompt, test and schema files it
names are read and written into the experiment. Nothing is sent.
What cannot be taken (Python assertions, embeddings, red-team plugins,
providers without a Callscope engine, prompts written as programs) is listed
on stderr as &quot;file:line /key/path: reason&quot;, and nothing is written unless
--skip-unsupported is given.

Options:
  --out FILE           write the experiment here (default: stdout)
  --skip-unsupported   leave the listed parts out and write the rest

Exit codes: 0 written, 2 an unreadable or invalid configuration, or parts
that are not supported (without --skip-unsupported).
</source>
        <translation>Aufruf: callscope-cli convert promptfooconfig.yaml [--out EXPERIMENT.json]
                             [--skip-unsupported]

Liest eine promptfoo-Konfiguration (Prompts, Provider, Tests, defaultTest und
ihre Zusicherungen) und schreibt das Callscope-Experiment, das daraus wird: das,
was callscope-cli eval für dieselbe Datei ausführt. Prompt-, Test- und
Schemadateien, die sie nennt, werden gelesen und ins Experiment geschrieben.
Es wird nichts gesendet.
Was nicht übernommen werden kann (Python-Zusicherungen, Embeddings, Red-Team-Plugins,
Provider ohne Callscope-Engine, als Programm geschriebene Prompts), wird auf
stderr als &quot;Datei:Zeile /Schlüssel/Pfad: Grund&quot; aufgeführt, und es wird nichts
geschrieben, außer mit --skip-unsupported.

Optionen:
  --out DATEI          das Experiment hierhin schreiben (Standard: stdout)
  --skip-unsupported   die aufgeführten Teile weglassen und den Rest schreiben

Exit-Codes: 0 geschrieben, 2 eine unlesbare oder ungültige Konfiguration oder
nicht unterstützte Teile (ohne --skip-unsupported).
</translation>
    </message>
    <message>
        <source>convert needs exactly one promptfoo configuration (see convert --help)</source>
        <translation>convert braucht genau eine promptfoo-Konfiguration (siehe convert --help)</translation>
    </message>
    <message>
        <source>%1: a promptfoo configuration is a .yaml or .yml file</source>
        <translation>%1: eine promptfoo-Konfiguration ist eine .yaml- oder .yml-Datei</translation>
    </message>
    <message>
        <source>%1 cannot be read as a promptfoo configuration:</source>
        <translation>%1 kann nicht als promptfoo-Konfiguration gelesen werden:</translation>
    </message>
    <message>
        <source>left out of %1 (not supported):</source>
        <translation>aus %1 weggelassen (nicht unterstützt):</translation>
    </message>
    <message>
        <source>%1 has parts Callscope cannot take:</source>
        <translation>%1 hat Teile, die Callscope nicht übernehmen kann:</translation>
    </message>
    <message>
        <source>nothing was written; --skip-unsupported writes the rest</source>
        <translation>nichts wurde geschrieben; --skip-unsupported schreibt den Rest</translation>
    </message>
    <message>
        <source>the experiment made from %1 does not load:</source>
        <translation>das aus %1 gemachte Experiment lässt sich nicht laden:</translation>
    </message>
    <message>
        <source>A promptfoo configuration: run without the parts Callscope cannot take (listed on stderr) instead of refusing it.</source>
        <translation>Eine promptfoo-Konfiguration: ohne die Teile ausführen, die Callscope nicht übernehmen kann (auf stderr aufgeführt), statt sie abzulehnen.</translation>
    </message>
    <message>
        <source>Usage: callscope-cli eval EXPERIMENT.json [--jobs N] [--out RESULTS.jsonl] [--junit REPORT.xml] [--resume ID] [--only CASE_ID]... [--db PATH] [--allow-tool NAME]... [--resubmit-unknown] [--baseline ID|latest] [--fail-under RATE] [--skip-unsupported]

Runs every case of the dataset in every variant, repeated, checks the assertions and prints the summary.
EXPERIMENT may also be a promptfoo configuration (.yaml, .yml): it is converted first (see callscope-cli convert), and when parts of it cannot be taken they are listed and nothing is sent unless --skip-unsupported is given.
Exit codes: 0 every case passed in every variant, 1 some did not, 2 the experiment is unreadable or invalid. With --baseline or --fail-under: 1 only for a significant regression, a regression of a critical case or a pass rate below RATE.
</source>
        <translation>Aufruf: callscope-cli eval EXPERIMENT.json [--jobs N] [--out ERGEBNISSE.jsonl] [--junit BERICHT.xml] [--resume ID] [--only FALL_ID]... [--db PFAD] [--allow-tool NAME]... [--resubmit-unknown] [--baseline ID|latest] [--fail-under RATE] [--skip-unsupported]

Führt jeden Fall des Datensatzes in jeder Variante aus, wiederholt, prüft die Zusicherungen und gibt die Zusammenfassung aus.
EXPERIMENT kann auch eine promptfoo-Konfiguration sein (.yaml, .yml): sie wird zuerst umgewandelt (siehe callscope-cli convert), und wenn Teile davon nicht übernommen werden können, werden sie aufgeführt und es wird nichts gesendet, außer mit --skip-unsupported.
Exit-Codes: 0 jeder Fall hat in jeder Variante bestanden, 1 einige nicht, 2 das Experiment ist unlesbar oder ungültig. Mit --baseline oder --fail-under: 1 nur bei einer signifikanten Regression, einer Regression eines kritischen Falls oder einer Bestehensquote unter RATE.
</translation>
    </message>
    <message>
        <source>nothing was sent; --skip-unsupported runs the rest without the parts listed as not supported</source>
        <translation>nichts wurde gesendet; --skip-unsupported führt den Rest ohne die als nicht unterstützt aufgeführten Teile aus</translation>
    </message>
    <message>
        <source>Write the Callscope experiment a promptfoo configuration makes.</source>
        <translation>Das Callscope-Experiment schreiben, das aus einer promptfoo-Konfiguration wird.</translation>
    </message>
    <message>
        <source>Usage: callscope-cli export --otlp [ENDPOINT] [--since DATE] [--kind K]
       [--experiment ID] [--db PATH]
   or: callscope-cli export-otlp [the same options] [--otlp ENDPOINT]

Sends stored calls to an OpenTelemetry collector as spans, with their
original times. The endpoint comes from --otlp or the OTEL_EXPORTER_OTLP_*
variables (docs/telemetry.md).
</source>
        <translation>Aufruf: callscope-cli export --otlp [ENDPUNKT] [--since DATUM] [--kind K]
       [--experiment ID] [--db PFAD]
   oder: callscope-cli export-otlp [dieselben Optionen] [--otlp ENDPUNKT]

Sendet gespeicherte Aufrufe als Spans an einen OpenTelemetry-Collector, mit
ihren ursprünglichen Zeiten. Der Endpunkt kommt aus --otlp oder den
Variablen OTEL_EXPORTER_OTLP_* (docs/telemetry.md).
</translation>
    </message>
    <message>
        <source>The shared history, postgresql://USER@HOST/DB.</source>
        <translation>Der gemeinsame Verlauf, postgresql://USER@HOST/DB.</translation>
    </message>
    <message>
        <source>Only calls made at or after DATE.</source>
        <translation>Nur Aufrufe ab DATE.</translation>
    </message>
    <message>
        <source>Usage: callscope-cli history push --to URL [--since DATE] [--kind K] [--db PATH]

Sends the calls of the history --db names (without it, the one on this
computer), or those made since DATE (2026-12-01 or an ISO 8601 time) and of
kind K, to the shared history URL names, with their sessions, batches and
experiment runs. A call the shared history holds already (the same UUID) is
not sent again. Progress goes to stderr, a JSON summary to stdout
(sent, already_there, failed). Ctrl+C stops between two calls. The password
comes from `history login` or libpq (PGPASSWORD, ~/.pgpass), never from an
argument.
</source>
        <translation>Aufruf: callscope-cli history push --to URL [--since DATE] [--kind K] [--db PATH]

Sendet die Aufrufe des Verlaufs, den --db nennt (ohne --db den auf diesem
Computer), oder die seit DATE (2026-12-01 oder eine ISO-8601-Zeit) gemachten
der Art K an den gemeinsamen Verlauf, den URL nennt, mit ihren Sitzungen,
Batches und Experimentläufen. Einen Aufruf, den der gemeinsame Verlauf schon
hat (dieselbe UUID), sendet er nicht noch einmal. Der Fortschritt geht nach
stderr, eine JSON-Zusammenfassung nach stdout (sent, already_there, failed).
Strg+C hält zwischen zwei Aufrufen an. Das Passwort kommt von `history login`
oder libpq (PGPASSWORD, ~/.pgpass), nie aus einem Argument.
</translation>
    </message>
    <message>
        <source>history push takes --to postgresql://USER@HOST/DB (see history push --help)</source>
        <translation>history push braucht --to postgresql://USER@HOST/DB (siehe history push --help)</translation>
    </message>
    <message>
        <source>history push: the URL must not hold the password; keep it with history login or in ~/.pgpass</source>
        <translation>history push: die URL darf das Passwort nicht enthalten; bewahren Sie es mit history login oder in ~/.pgpass auf</translation>
    </message>
    <message>
        <source>history push: --since takes a date (2026-12-01) or an ISO 8601 time, not &apos;%1&apos;</source>
        <translation>history push: --since nimmt ein Datum (2026-12-01) oder eine ISO-8601-Zeit, nicht „%1“</translation>
    </message>
    <message>
        <source>history push: --db and --to name the same history</source>
        <translation>history push: --db und --to nennen denselben Verlauf</translation>
    </message>
    <message>
        <source>history push: %1 of %2</source>
        <translation>history push: %1 von %2</translation>
    </message>
    <message>
        <source>history push: stopping after the call being sent</source>
        <translation>history push: hält nach dem Aufruf an, der gerade gesendet wird</translation>
    </message>
    <message>
        <source>history push: %1</source>
        <translation>history push: %1</translation>
    </message>
    <message>
        <source>history push: stopped; what was sent stays sent, the next push sends the rest</source>
        <translation>history push: angehalten; was gesendet wurde, bleibt gesendet, der nächste push sendet den Rest</translation>
    </message>
    <message>
        <source>history push: nothing new to send; %1 holds every one of these calls</source>
        <translation>history push: nichts Neues zu senden; %1 hat jeden dieser Aufrufe schon</translation>
    </message>
    <message>
        <source>Usage: callscope-cli history [--kind K] [--status S] [--engine E] [--model M]
           [--person NAME] [--session ID] [--parent ID] [--search TEXT]
           [--limit N] [--after CURSOR] [--db PATH]

Lists stored calls, newest first, as a JSON array. Each row has a &quot;cursor&quot;;
pass the last one to --after for the next page.

       callscope-cli history check|backup|backups|restore [--from FILE]|recover|new
           [--db PATH]

check    runs SQLite&apos;s integrity check; exit 1 when the history is damaged
backup   writes a verified backup beside the database (the newest 3 are kept)
backups  lists the backups with their dates and number of calls
restore  puts back the newest good backup (or --from FILE)
recover  copies every row that can still be read into a new history
new      starts an empty history
restore, recover and new keep the old file beside it, renamed *.damaged-DATE.

       callscope-cli history login|logout URL

login    keeps the password of a PostgreSQL history in the OS keychain
logout   removes it

       callscope-cli history push --to URL [--since DATE] [--kind K] [--db PATH]

push     sends this history&apos;s calls to a shared one, each once (see push --help)
</source>
        <translation>Aufruf: callscope-cli history [--kind K] [--status S] [--engine E] [--model M]
           [--person NAME] [--session ID] [--parent ID] [--search TEXT]
           [--limit N] [--after CURSOR] [--db PATH]

Listet gespeicherte Aufrufe, die neuesten zuerst, als JSON-Array. Jede Zeile hat einen „cursor“;
übergeben Sie den letzten an --after für die nächste Seite.

       callscope-cli history check|backup|backups|restore [--from FILE]|recover|new
           [--db PATH]

check    führt die Integritätsprüfung von SQLite aus; Exit-Code 1, wenn der Verlauf beschädigt ist
backup   schreibt eine geprüfte Sicherung neben die Datenbank (die neuesten 3 bleiben)
backups  listet die Sicherungen mit Datum und Anzahl der Aufrufe
restore  stellt die neueste gute Sicherung wieder her (oder --from FILE)
recover  kopiert jede noch lesbare Zeile in einen neuen Verlauf
new      beginnt einen leeren Verlauf
restore, recover und new behalten die alte Datei daneben, umbenannt in *.damaged-DATUM.

       callscope-cli history login|logout URL

login    bewahrt das Passwort eines PostgreSQL-Verlaufs im Schlüsselbund des Systems auf
logout   entfernt es

       callscope-cli history push --to URL [--since DATE] [--kind K] [--db PATH]

push     sendet die Aufrufe dieses Verlaufs an einen gemeinsamen, jeden einmal (siehe push --help)
</translation>
    </message>
    <message>
        <source>%1; calls are kept in the local queue %2 and sent to the shared history when it can be reached again</source>
        <translation>%1; Aufrufe werden in der lokalen Warteschlange %2 aufbewahrt und an den gemeinsamen Verlauf gesendet, sobald er wieder erreichbar ist</translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) from the local queue were sent to the shared history at %1</source>
        <translation>
            <numerusform>%n Aufruf aus der lokalen Warteschlange wurde an den gemeinsamen Verlauf auf %1 gesendet</numerusform>
            <numerusform>%n Aufrufe aus der lokalen Warteschlange wurden an den gemeinsamen Verlauf auf %1 gesendet</numerusform>
        </translation>
    </message>
    <message>
        <source>the local queue was not sent in full (it keeps the rest): %1</source>
        <translation>die lokale Warteschlange wurde nicht ganz gesendet (sie behält den Rest): %1</translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <source>batch %1: explicit cache %2: %3 tokens, named by %4 requests, kept %5 s, %6; storage $%7</source>
        <translation>Batch %1: expliziter Cache %2: %3 Tokens, von %4 Anfragen genannt, %5 s gehalten, %6; Speicher $%7</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>gelöscht</translation>
    </message>
    <message>
        <source>not deleted</source>
        <translation>nicht gelöscht</translation>
    </message>
    <message>
        <source>; $%1 with $%2 of cache storage, $%3 without the cache</source>
        <translation>; $%1 mit $%2 Cache-Speicher, $%3 ohne den Cache</translation>
    </message>
</context>
<context>
    <name>Cli::Engines</name>
    <message>
        <source>%1 is refused: a key given as an argument shows in the process list. Use --key-env VAR (the key in an environment variable) or --key-stdin.</source>
        <translation>%1 wird abgelehnt: Ein als Argument übergebener Schlüssel ist in der Prozessliste sichtbar. Verwenden Sie --key-env VAR (der Schlüssel in einer Umgebungsvariablen) oder --key-stdin.</translation>
    </message>
    <message>
        <source>engines add needs --type (one of: %1)</source>
        <translation>engines add braucht --type (eines von: %1)</translation>
    </message>
    <message>
        <source>unknown engine type &apos;%1&apos; (one of: %2)</source>
        <translation>unbekannter Engine-Typ „%1“ (eines von: %2)</translation>
    </message>
    <message>
        <source>engines add needs --model</source>
        <translation>engines add braucht --model</translation>
    </message>
    <message>
        <source>invalid --base-url &apos;%1&apos;: expected http:// or https:// and a host</source>
        <translation>ungültige --base-url „%1“: http:// oder https:// und ein Host erwartet</translation>
    </message>
    <message>
        <source>--context-window needs a positive whole number</source>
        <translation>--context-window braucht eine positive ganze Zahl</translation>
    </message>
    <message>
        <source>--max-tokens needs a positive whole number</source>
        <translation>--max-tokens braucht eine positive ganze Zahl</translation>
    </message>
    <message>
        <source>--temperature needs a number of 0 or more</source>
        <translation>--temperature braucht eine Zahl größer oder gleich 0</translation>
    </message>
    <message>
        <source>give the key either with --key-env or with --key-stdin, not both</source>
        <translation>geben Sie den Schlüssel entweder mit --key-env oder mit --key-stdin an, nicht mit beiden</translation>
    </message>
    <message>
        <source>the environment variable %1 given by --key-env is not set or empty</source>
        <translation>die mit --key-env angegebene Umgebungsvariable %1 ist nicht gesetzt oder leer</translation>
    </message>
    <message>
        <source>cannot read the key from stdin</source>
        <translation>der Schlüssel kann nicht von der Standardeingabe gelesen werden</translation>
    </message>
    <message>
        <source>no key on stdin (--key-stdin reads the key from standard input)</source>
        <translation>kein Schlüssel auf der Standardeingabe (--key-stdin liest den Schlüssel von der Standardeingabe)</translation>
    </message>
    <message>
        <source>an engine profile named &apos;%1&apos; already exists (remove it first)</source>
        <translation>ein Engine-Profil namens „%1“ existiert bereits (entfernen Sie es zuerst)</translation>
    </message>
    <message>
        <source>cannot store the key of engine &apos;%1&apos;; the engine was not added. %2</source>
        <translation>der Schlüssel der Engine „%1“ kann nicht gespeichert werden; die Engine wurde nicht hinzugefügt. %2</translation>
    </message>
    <message>
        <source>usage: engines list</source>
        <translation>Aufruf: engines list</translation>
    </message>
    <message>
        <source>cannot tell which engines have a key: %1</source>
        <translation>es lässt sich nicht feststellen, welche Engines einen Schlüssel haben: %1</translation>
    </message>
    <message>
        <source>usage: engines remove NAME</source>
        <translation>Aufruf: engines remove NAME</translation>
    </message>
    <message>
        <source>no engine profile named &apos;%1&apos;</source>
        <translation>kein Engine-Profil namens „%1“</translation>
    </message>
    <message>
        <source>usage: engines test NAME [--key-env VAR]</source>
        <translation>Aufruf: engines test NAME [--key-env VAR]</translation>
    </message>
    <message>
        <source>engine &apos;%1&apos; failed the test: %2</source>
        <translation>Engine „%1“ hat den Test nicht bestanden: %2</translation>
    </message>
    <message>
        <source>engines needs a subcommand: list, add, remove or test</source>
        <translation>engines braucht einen Unterbefehl: list, add, remove oder test</translation>
    </message>
    <message>
        <source>unknown engines subcommand &apos;%1&apos; (list, add, remove or test)</source>
        <translation>unbekannter Unterbefehl von engines „%1“ (list, add, remove oder test)</translation>
    </message>
    <message>
        <source>--max-in-flight needs a positive whole number</source>
        <translation>--max-in-flight braucht eine positive ganze Zahl</translation>
    </message>
    <message>
        <source>%1 needs a positive whole number of milliseconds</source>
        <translation>%1 braucht eine positive ganze Zahl in Millisekunden</translation>
    </message>
    <message>
        <source>cannot test engine &apos;%1&apos; (nothing was sent): %2</source>
        <translation>Engine „%1“ kann nicht getestet werden (es wurde nichts gesendet): %2</translation>
    </message>
    <message>
        <source>usage: engines add NAME --type T --model M [--base-url URL] [--context-window N] [--max-in-flight N] [--timeout-ms MS] [--idle-timeout-ms MS] [--cache JSON] [--key-env VAR | --key-stdin]</source>
        <translation>Aufruf: engines add NAME --type T --model M [--base-url URL] [--context-window N] [--max-in-flight N] [--timeout-ms MS] [--idle-timeout-ms MS] [--cache JSON] [--key-env VAR | --key-stdin]</translation>
    </message>
    <message>
        <source>expected a JSON object</source>
        <translation>ein JSON-Objekt erwartet</translation>
    </message>
    <message>
        <source>invalid --cache: %1</source>
        <translation>ungültiges --cache: %1</translation>
    </message>
</context>
<context>
    <name>Experiment</name>
    <message>
        <source>must be an array of assertions</source>
        <translation>muss ein Array von Zusicherungen sein</translation>
    </message>
    <message>
        <source>an assertion is an object with a &quot;type&quot;</source>
        <translation>eine Zusicherung ist ein Objekt mit einem &quot;type&quot;</translation>
    </message>
    <message>
        <source>missing; one of: %1</source>
        <translation>fehlt; eines von: %1</translation>
    </message>
    <message>
        <source>a row needs a string &quot;input&quot;</source>
        <translation>eine Zeile braucht eine Zeichenkette &quot;input&quot;</translation>
    </message>
    <message>
        <source>&quot;vars&quot; must be an object</source>
        <translation>&quot;vars&quot; muss ein Objekt sein</translation>
    </message>
    <message>
        <source>&quot;attachments&quot; must be an array of file paths</source>
        <translation>&quot;attachments&quot; muss ein Array von Dateipfaden sein</translation>
    </message>
    <message>
        <source>a row is an object</source>
        <translation>eine Zeile ist ein Objekt</translation>
    </message>
    <message>
        <source>missing: a JSONL or CSV file, or an array of rows</source>
        <translation>fehlt: eine JSONL- oder CSV-Datei oder ein Array von Zeilen</translation>
    </message>
    <message>
        <source>not JSON: %1</source>
        <translation>kein JSON: %1</translation>
    </message>
    <message>
        <source>a row is a JSON object</source>
        <translation>eine Zeile ist ein JSON-Objekt</translation>
    </message>
    <message>
        <source>a quoted field is not closed</source>
        <translation>ein Feld in Anführungszeichen ist nicht geschlossen</translation>
    </message>
    <message>
        <source>%1 fields, the header has %2</source>
        <translation>%1 Felder, die Kopfzeile hat %2</translation>
    </message>
    <message>
        <source>&quot;expected&quot; is not JSON: %1</source>
        <translation>&quot;expected&quot; ist kein JSON: %1</translation>
    </message>
    <message>
        <source>an experiment is a JSON object</source>
        <translation>ein Experiment ist ein JSON-Objekt</translation>
    </message>
    <message>
        <source>unknown field (known: %1)</source>
        <translation>unbekanntes Feld (bekannt: %1)</translation>
    </message>
    <message>
        <source>the spec is not a JSON object: %1</source>
        <translation>die Spezifikation ist kein JSON-Objekt: %1</translation>
    </message>
    <message>
        <source>missing: a spec file or an inline spec object</source>
        <translation>fehlt: eine Spezifikationsdatei oder ein eingebettetes Spezifikationsobjekt</translation>
    </message>
    <message>
        <source>must be a whole number from 1 to 1000</source>
        <translation>muss eine ganze Zahl von 1 bis 1000 sein</translation>
    </message>
    <message>
        <source>must be a whole number from 1 to 256</source>
        <translation>muss eine ganze Zahl von 1 bis 256 sein</translation>
    </message>
    <message>
        <source>must be &quot;direct&quot; or &quot;batch&quot;</source>
        <translation>muss &quot;direct&quot; oder &quot;batch&quot; sein</translation>
    </message>
    <message>
        <source>the id &quot;%1&quot; is used twice</source>
        <translation>die ID „%1“ wird zweimal verwendet</translation>
    </message>
    <message>
        <source>the dataset has no rows</source>
        <translation>der Datensatz hat keine Zeilen</translation>
    </message>
    <message>
        <source>must be a non-empty array of variants</source>
        <translation>muss ein nicht leeres Array von Varianten sein</translation>
    </message>
    <message>
        <source>a variant is an object with a &quot;name&quot;</source>
        <translation>eine Variante ist ein Objekt mit einem &quot;name&quot;</translation>
    </message>
    <message>
        <source>the name &quot;%1&quot; is used twice</source>
        <translation>der Name „%1“ wird zweimal verwendet</translation>
    </message>
    <message>
        <source>must be a call id (a positive number)</source>
        <translation>muss eine Aufruf-ID sein (eine positive Zahl)</translation>
    </message>
    <message>
        <source>needs the history database</source>
        <translation>braucht die Verlaufsdatenbank</translation>
    </message>
    <message>
        <source>call %1: %2</source>
        <translation>Aufruf %1: %2</translation>
    </message>
    <message>
        <source>no value for {{%1}} in the row&apos;s vars (case %2)</source>
        <translation>kein Wert für {{%1}} in den vars der Zeile (Fall %2)</translation>
    </message>
    <message>
        <source>must be a number, 0 or more</source>
        <translation>muss eine Zahl größer oder gleich 0 sein</translation>
    </message>
    <message>
        <source>the line is longer than %1; nothing after it was read</source>
        <translation>die Zeile ist länger als %1; danach wurde nichts gelesen</translation>
    </message>
    <message>
        <source>&quot;critical&quot; must be true or false</source>
        <translation>&quot;critical&quot; muss true oder false sein</translation>
    </message>
    <message>
        <source>&quot;transform&quot; must be a JavaScript string</source>
        <translation>&quot;transform&quot; muss eine JavaScript-Zeichenkette sein</translation>
    </message>
    <message>
        <source>must be a string: the input of every case, with {{vars}}</source>
        <translation>muss ein String sein: die Eingabe jedes Falls, mit {{vars}}</translation>
    </message>
    <message>
        <source>a row needs a string &quot;input&quot; (or every variant an &quot;input&quot;)</source>
        <translation>eine Zeile braucht einen String &quot;input&quot; (oder jede Variante ein &quot;input&quot;)</translation>
    </message>
</context>
<context>
    <name>ExperimentBaseline</name>
    <message>
        <source>the history database is not open</source>
        <translation>die Verlaufsdatenbank ist nicht geöffnet</translation>
    </message>
    <message>
        <source>no earlier run of the experiment &quot;%1&quot; is stored</source>
        <translation>kein früherer Lauf des Experiments &quot;%1&quot; ist gespeichert</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is neither an experiment id nor &quot;latest&quot;</source>
        <translation>&quot;%1&quot; ist weder eine Experiment-ID noch &quot;latest&quot;</translation>
    </message>
    <message>
        <source>there is no stored experiment %1</source>
        <translation>es gibt kein gespeichertes Experiment %1</translation>
    </message>
</context>
<context>
    <name>ExperimentReport</name>
    <message>
        <source>repeat %1, %2: %3</source>
        <translation>Wiederholung %1, %2: %3</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>kein Preis</translation>
    </message>
    <message>
        <source>Experiment %1</source>
        <translation>Experiment %1</translation>
    </message>
    <message>
        <source>Variants</source>
        <translation>Varianten</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>Variante</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>Fälle</translation>
    </message>
    <message>
        <source>Passed</source>
        <translation>Bestanden</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Nicht bestanden</translation>
    </message>
    <message>
        <source>Flaky</source>
        <translation>Wackelig</translation>
    </message>
    <message>
        <source>Pass rate</source>
        <translation>Bestehensquote</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>Tokens in / out</source>
        <translation>Tokens ein / aus</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Kosten</translation>
    </message>
    <message>
        <source>Latency p50 / p95</source>
        <translation>Latenz p50 / p95</translation>
    </message>
    <message>
        <source>Matrix</source>
        <translation>Matrix</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Fall</translation>
    </message>
    <message>
        <source>Comparisons</source>
        <translation>Vergleiche</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>B − A (points)</source>
        <translation>B − A (Punkte)</translation>
    </message>
    <message>
        <source>95% interval</source>
        <translation>95-%-Intervall</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>Score B − A</source>
        <translation>Bewertung B − A</translation>
    </message>
    <message>
        <source>In words</source>
        <translation>In Worten</translation>
    </message>
    <message>
        <source>Over repeats</source>
        <translation>Über die Wiederholungen</translation>
    </message>
    <message>
        <source>pass@k: the chance that at least one of k runs of a case passes; pass^k: that all k pass.</source>
        <translation>pass@k: die Wahrscheinlichkeit, dass mindestens einer von k Läufen eines Falls besteht; pass^k: dass alle k bestehen.</translation>
    </message>
    <message>
        <source>People&apos;s labels</source>
        <translation>Bewertungen von Menschen</translation>
    </message>
    <message>
        <source>%1 labels by %2: %3 pass, %4 fail, %5 skipped.</source>
        <translation>%1 Bewertungen von %2: %3 bestanden, %4 durchgefallen, %5 übersprungen.</translation>
    </message>
    <message>
        <source>Judges and people</source>
        <translation>Richter und Menschen</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>Richter</translation>
    </message>
    <message>
        <source>Agreed</source>
        <translation>Übereinstimmend</translation>
    </message>
    <message>
        <source>Kappa</source>
        <translation>Kappa</translation>
    </message>
    <message>
        <source>Judge pass, person pass</source>
        <translation>Richter bestanden, Mensch bestanden</translation>
    </message>
    <message>
        <source>Judge pass, person fail</source>
        <translation>Richter bestanden, Mensch durchgefallen</translation>
    </message>
    <message>
        <source>Judge fail, person pass</source>
        <translation>Richter durchgefallen, Mensch bestanden</translation>
    </message>
    <message>
        <source>Judge fail, person fail</source>
        <translation>Richter durchgefallen, Mensch durchgefallen</translation>
    </message>
    <message>
        <source>Kappa: how much more often the judge and the people agree than two raters guessing at the same rates would; 1 is full agreement, 0 is chance.</source>
        <translation>Kappa: um wie viel öfter der Richter und die Menschen übereinstimmen, als zwei Bewerter, die mit denselben Anteilen raten; 1 ist volle Übereinstimmung, 0 ist Zufall.</translation>
    </message>
</context>
<context>
    <name>ExperimentRun</name>
    <message>
        <source>no price for the model %1 (%2)</source>
        <translation>kein Preis für das Modell %1 (%2)</translation>
    </message>
    <message>
        <source>the call cost %1 USD, above %2</source>
        <translation>der Aufruf kostete %1 USD, mehr als %2</translation>
    </message>
    <message>
        <source>the judge cannot run</source>
        <translation>der Bewerter kann nicht ausgeführt werden</translation>
    </message>
    <message>
        <source>the judge&apos;s call ended %1: %2</source>
        <translation>der Aufruf des Bewerters endete mit %1: %2</translation>
    </message>
    <message>
        <source>score %1 (pass from %2): %3</source>
        <translation>Bewertung %1 (bestanden ab %2): %3</translation>
    </message>
    <message>
        <source>the history database is not open</source>
        <translation>die Verlaufsdatenbank ist nicht geöffnet</translation>
    </message>
    <message>
        <source>not run: the experiment is not trusted to run programs</source>
        <translation>nicht ausgeführt: dem Experiment wird nicht vertraut, Programme auszuführen</translation>
    </message>
    <message>
        <source>the judge passed it, and it must not (&quot;not&quot;): %1</source>
        <translation>der Bewerter hat es bestehen lassen, und das darf er nicht (&quot;not&quot;): %1</translation>
    </message>
</context>
<context>
    <name>ExperimentScripts</name>
    <message>
        <source>line %1: %2</source>
        <translation>Zeile %1: %2</translation>
    </message>
    <message>
        <source>the script is empty</source>
        <translation>das Skript ist leer</translation>
    </message>
    <message>
        <source>the script ran longer than its limit of %1 ms and was stopped</source>
        <translation>das Skript lief länger als seine Grenze von %1 ms und wurde angehalten</translation>
    </message>
    <message>
        <source>the script threw: %1</source>
        <translation>das Skript hat eine Ausnahme geworfen: %1</translation>
    </message>
    <message>
        <source>the script&apos;s result is not JSON: %1</source>
        <translation>das Ergebnis des Skripts ist kein JSON: %1</translation>
    </message>
    <message>
        <source>the case&apos;s transform</source>
        <translation>die Transformation des Falls</translation>
    </message>
    <message>
        <source>the assertion&apos;s transform</source>
        <translation>die Transformation der Zusicherung</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>score %1 (pass from %2)</source>
        <translation>Bewertung %1 (bestanden ab %2)</translation>
    </message>
    <message>
        <source>the script returned %1</source>
        <translation>das Skript gab %1 zurück</translation>
    </message>
</context>
<context>
    <name>ExperimentStatistics</name>
    <message>
        <source>%1 and %2 have no case that both ran completely: nothing to compare.</source>
        <translation>%1 und %2 haben keinen Fall, den beide vollständig ausgeführt haben: nichts zu vergleichen.</translation>
    </message>
    <message>
        <source>95% CI %1 to %2</source>
        <translation>95-%-KI %1 bis %2</translation>
    </message>
    <message>
        <source>%1 passes %2 points more often than %3 (%4; %5).</source>
        <translation>%1 besteht um %2 Punkte öfter als %3 (%4; %5).</translation>
    </message>
    <message>
        <source>%1 passes %2 points less often than %3 (%4; %5).</source>
        <translation>%1 besteht um %2 Punkte seltener als %3 (%4; %5).</translation>
    </message>
    <message>
        <source>No difference this run can detect between %1 and %2 (%2 minus %1: %3 points, %4; %5); with %6 cases it would see about %7 points.</source>
        <translation>Kein Unterschied zwischen %1 und %2, den dieser Lauf erkennen kann (%2 minus %1: %3 Punkte, %4; %5); mit %6 Fällen würde er etwa %7 Punkte sehen.</translation>
    </message>
</context>
<context>
    <name>GeminiContentCache</name>
    <message>
        <source>the answer names no cached content</source>
        <translation>die Antwort nennt keinen Cache-Inhalt</translation>
    </message>
    <message>
        <source>Gemini&apos;s explicit cache for %1 could not be created (%2); the calls send the system prompt and tools themselves</source>
        <translation>Der explizite Cache von Gemini für %1 konnte nicht angelegt werden (%2); die Aufrufe senden Systemprompt und Werkzeuge selbst</translation>
    </message>
    <message>
        <source>no network access</source>
        <translation>kein Netzwerkzugriff</translation>
    </message>
    <message>
        <source>Gemini&apos;s explicit cache %1 could not be deleted (%2); it ends by itself after its TTL</source>
        <translation>Der explizite Cache %1 von Gemini konnte nicht gelöscht werden (%2); er endet von selbst nach seiner TTL</translation>
    </message>
</context>
<context>
    <name>Gui</name>
    <message>
        <source>Desktop studio for engineering LLM calls.</source>
        <translation>Desktop-Studio für die Entwicklung von LLM-Aufrufen.</translation>
    </message>
    <message>
        <source>A spec file to open.</source>
        <translation>Eine zu öffnende Spezifikationsdatei.</translation>
    </message>
    <message>
        <source>Use this history (a file, or a postgresql:// URL) instead of the one chosen in Settings &gt; History.</source>
        <translation>Diesen Verlauf (eine Datei oder eine postgresql://-URL) statt des unter Einstellungen &gt; Verlauf gewählten verwenden.</translation>
    </message>
</context>
<context>
    <name>HistoryQueue</name>
    <message>
        <source>copying a row of the server into the local queue</source>
        <translation>beim Kopieren einer Zeile des Servers in die lokale Warteschlange</translation>
    </message>
    <message>
        <source>counting what waits to be sent</source>
        <translation>beim Zählen dessen, was auf das Senden wartet</translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) wait to be sent to the shared history at %1</source>
        <translation>
            <numerusform>%n Aufruf wartet darauf, an den gemeinsamen Verlauf auf %1 gesendet zu werden</numerusform>
            <numerusform>%n Aufrufe warten darauf, an den gemeinsamen Verlauf auf %1 gesendet zu werden</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>HistorySettings</name>
    <message>
        <source>%1 is not a PostgreSQL history URL</source>
        <translation>%1 ist keine PostgreSQL-Verlaufs-URL</translation>
    </message>
    <message>
        <source>the URL must not hold the password (it would be written to the settings)</source>
        <translation>die URL darf das Passwort nicht enthalten (es würde in die Einstellungen geschrieben)</translation>
    </message>
    <message>
        <source>Could not connect: %1</source>
        <translation>Verbindung nicht möglich: %1</translation>
    </message>
    <message>
        <source>Connected, but %1</source>
        <translation>Verbunden, aber %1</translation>
    </message>
    <message>
        <source>the database has no Callscope tables yet; the studio creates them when it first opens it</source>
        <translation>die Datenbank hat noch keine Callscope-Tabellen; das Studio legt sie an, wenn es sie zum ersten Mal öffnet</translation>
    </message>
    <message>
        <source>schema version %1; this Callscope migrates it to %2 when it first opens it</source>
        <translation>Schemaversion %1; dieses Callscope migriert sie beim ersten Öffnen auf %2</translation>
    </message>
    <message>
        <source>schema version %1, up to date</source>
        <translation>Schemaversion %1, aktuell</translation>
    </message>
    <message>
        <source>the role %1 may store calls.</source>
        <translation>die Rolle %1 darf Aufrufe speichern.</translation>
    </message>
    <message>
        <source>the role %1 may not create them, so nobody can store calls yet (ask for a role that may write).</source>
        <translation>die Rolle %1 darf sie nicht anlegen, daher kann noch niemand Aufrufe speichern (fragen Sie nach einer Rolle mit Schreibrecht).</translation>
    </message>
    <message>
        <source>the role %1 may only read: the history is read-only, browsing works and Run stays off.</source>
        <translation>die Rolle %1 darf nur lesen: der Verlauf ist schreibgeschützt, Durchsehen funktioniert und Ausführen bleibt aus.</translation>
    </message>
    <message>
        <source>Connected: %1; %2</source>
        <translation>Verbunden: %1; %2</translation>
    </message>
</context>
<context>
    <name>HistoryTransfer</name>
    <message>
        <source>choosing the calls to send</source>
        <translation>beim Auswählen der zu sendenden Aufrufe</translation>
    </message>
    <message>
        <source>the call has no UUID</source>
        <translation>der Aufruf hat keine UUID</translation>
    </message>
    <message>
        <source>reading the batch of call %1</source>
        <translation>beim Lesen des Batches von Aufruf %1</translation>
    </message>
    <message>
        <source>reading the runs of call %1</source>
        <translation>beim Lesen der Läufe von Aufruf %1</translation>
    </message>
    <message>
        <source>reading the experiment runs</source>
        <translation>beim Lesen der Experimentläufe</translation>
    </message>
    <message>
        <source>reading experiment run %1</source>
        <translation>beim Lesen von Experimentlauf %1</translation>
    </message>
    <message>
        <source>no run %1</source>
        <translation>kein Lauf %1</translation>
    </message>
    <message>
        <source>looking up experiment run %1</source>
        <translation>beim Nachschlagen von Experimentlauf %1</translation>
    </message>
    <message>
        <source>no experiment %1</source>
        <translation>kein Experiment %1</translation>
    </message>
    <message>
        <source>call %1: %2</source>
        <translation>Aufruf %1: %2</translation>
    </message>
    <message>
        <source>reading call %1</source>
        <translation>beim Lesen von Aufruf %1</translation>
    </message>
    <message>
        <source>reading batch %1</source>
        <translation>beim Lesen von Batch %1</translation>
    </message>
    <message>
        <source>looking up a batch</source>
        <translation>beim Nachschlagen eines Batches</translation>
    </message>
    <message>
        <source>removing call %1</source>
        <translation>beim Entfernen von Aufruf %1</translation>
    </message>
    <message>
        <source>removing a sent run</source>
        <translation>beim Entfernen eines gesendeten Laufs</translation>
    </message>
    <message>
        <source>reading the runs of a call</source>
        <translation>beim Lesen der Läufe eines Aufrufs</translation>
    </message>
    <message>
        <source>removing what was sent</source>
        <translation>beim Entfernen des Gesendeten</translation>
    </message>
</context>
<context>
    <name>JsonSchema</name>
    <message>
        <source>an object</source>
        <translation>an object</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>an array</translation>
    </message>
    <message>
        <source>a boolean</source>
        <translation>a boolean</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>a number</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>a string</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>an integer</translation>
    </message>
    <message>
        <source>cannot resolve reference &quot;%1&quot;</source>
        <translation>cannot resolve reference &quot;%1&quot;</translation>
    </message>
    <message>
        <source>schema is nested too deeply (more than %1 levels)</source>
        <translation>schema is nested too deeply (more than %1 levels)</translation>
    </message>
    <message>
        <source>a schema must be an object or a boolean, got %1</source>
        <translation>a schema must be an object or a boolean, got %1</translation>
    </message>
    <message>
        <source>must be an array of schemas</source>
        <translation>must be an array of schemas</translation>
    </message>
    <message>
        <source>invalid regular expression %1: %2</source>
        <translation>invalid regular expression %1: %2</translation>
    </message>
    <message>
        <source>must be a non-negative integer</source>
        <translation>must be a non-negative integer</translation>
    </message>
    <message>
        <source>unknown type %1</source>
        <translation>unknown type %1</translation>
    </message>
    <message>
        <source>the schema refers back to itself without consuming any input (a $ref cycle)</source>
        <translation>the schema refers back to itself without consuming any input (a $ref cycle)</translation>
    </message>
    <message>
        <source>property %1 is not allowed</source>
        <translation>property %1 is not allowed</translation>
    </message>
    <message>
        <source>no value is allowed here</source>
        <translation>no value is allowed here</translation>
    </message>
    <message>
        <source>nesting is too deep (more than %1 levels)</source>
        <translation>nesting is too deep (more than %1 levels)</translation>
    </message>
    <message>
        <source> or </source>
        <translation> or </translation>
    </message>
    <message>
        <source>expected %1, got %2</source>
        <translation>expected %1, got %2</translation>
    </message>
    <message>
        <source>must be at most %1, got %2</source>
        <translation>must be at most %1, got %2</translation>
    </message>
    <message>
        <source>must be less than %1, got %2</source>
        <translation>must be less than %1, got %2</translation>
    </message>
    <message>
        <source>must be at least %1, got %2</source>
        <translation>must be at least %1, got %2</translation>
    </message>
    <message>
        <source>must be greater than %1, got %2</source>
        <translation>must be greater than %1, got %2</translation>
    </message>
    <message>
        <source>%1 is not a multiple of %2</source>
        <translation>%1 is not a multiple of %2</translation>
    </message>
    <message>
        <source>is %1 characters long, at most %2 allowed</source>
        <translation>is %1 characters long, at most %2 allowed</translation>
    </message>
    <message>
        <source>is %1 characters long, at least %2 required</source>
        <translation>is %1 characters long, at least %2 required</translation>
    </message>
    <message>
        <source>%1 does not match the pattern %2</source>
        <translation>%1 does not match the pattern %2</translation>
    </message>
    <message>
        <source>%1 is not a valid %2</source>
        <translation>%1 is not a valid %2</translation>
    </message>
    <message>
        <source>has %1 items, at most %2 allowed</source>
        <translation>has %1 items, at most %2 allowed</translation>
    </message>
    <message>
        <source>has %1 items, at least %2 required</source>
        <translation>has %1 items, at least %2 required</translation>
    </message>
    <message>
        <source>items %1 and %2 are equal (%3); items must be unique</source>
        <translation>items %1 and %2 are equal (%3); items must be unique</translation>
    </message>
    <message>
        <source>must be an empty array, has %1 items</source>
        <translation>must be an empty array, has %1 items</translation>
    </message>
    <message>
        <source>no item matches the &quot;contains&quot; schema</source>
        <translation>no item matches the &quot;contains&quot; schema</translation>
    </message>
    <message>
        <source>has %1 matching items, at least %2 required</source>
        <translation>has %1 matching items, at least %2 required</translation>
    </message>
    <message>
        <source>has %1 matching items, at most %2 allowed</source>
        <translation>has %1 matching items, at most %2 allowed</translation>
    </message>
    <message>
        <source>has %1 properties, at most %2 allowed</source>
        <translation>has %1 properties, at most %2 allowed</translation>
    </message>
    <message>
        <source>has %1 properties, at least %2 required</source>
        <translation>has %1 properties, at least %2 required</translation>
    </message>
    <message>
        <source>property name %1: %2</source>
        <translation>property name %1: %2</translation>
    </message>
    <message>
        <source>unexpected property %1</source>
        <translation>unexpected property %1</translation>
    </message>
    <message>
        <source> (allowed: %1)</source>
        <translation> (allowed: %1)</translation>
    </message>
    <message>
        <source>missing required property %1</source>
        <translation>missing required property %1</translation>
    </message>
    <message>
        <source>property %1 is required when %2 is present</source>
        <translation>property %1 is required when %2 is present</translation>
    </message>
    <message>
        <source>matches %1 of the allowed shapes (%2), exactly one is required</source>
        <translation>matches %1 of the allowed shapes (%2), exactly one is required</translation>
    </message>
    <message>
        <source>, got </source>
        <translation>, got </translation>
    </message>
    <message>
        <source>expected </source>
        <translation>expected </translation>
    </message>
    <message>
        <source>value must be one of </source>
        <translation>value must be one of </translation>
    </message>
    <message>
        <source>value must be </source>
        <translation>value must be </translation>
    </message>
    <message>
        <source>one of </source>
        <translation>one of </translation>
    </message>
    <message>
        <source>does not match any of the %1 allowed shapes; the closest (%2 %3) fails with:</source>
        <translation>does not match any of the %1 allowed shapes; the closest (%2 %3) fails with:</translation>
    </message>
    <message>
        <source>value must be %1, got %2</source>
        <translation>value must be %1, got %2</translation>
    </message>
    <message>
        <source>value must be one of %1, got %2</source>
        <translation>value must be one of %1, got %2</translation>
    </message>
    <message>
        <source>must not match the schema at %1</source>
        <translation>must not match the schema at %1</translation>
    </message>
    <message>
        <source>unexpected item at index %1</source>
        <translation>unexpected item at index %1</translation>
    </message>
    <message>
        <source>no schema</source>
        <translation>no schema</translation>
    </message>
    <message>
        <source>the value does not match the schema</source>
        <translation>the value does not match the schema</translation>
    </message>
    <message>
        <source>... and %1 more</source>
        <translation>... and %1 more</translation>
    </message>
    <message>
        <source>the instance is not a JSON document</source>
        <translation>the instance is not a JSON document</translation>
    </message>
    <message>
        <source>this schema is too expensive to check: more than %1 steps for one value</source>
        <translation>this schema is too expensive to check: more than %1 steps for one value</translation>
    </message>
    <message>
        <source>the check was stopped</source>
        <translation>the check was stopped</translation>
    </message>
</context>
<context>
    <name>JsonTape</name>
    <message>
        <source>unterminated string</source>
        <translation>nicht abgeschlossene Zeichenkette</translation>
    </message>
    <message>
        <source>control character in a string</source>
        <translation>Steuerzeichen in einer Zeichenkette</translation>
    </message>
    <message>
        <source>invalid UTF-8 in a string</source>
        <translation>ungültiges UTF-8 in einer Zeichenkette</translation>
    </message>
    <message>
        <source>invalid \u escape</source>
        <translation>ungültige \u-Escape-Sequenz</translation>
    </message>
    <message>
        <source>invalid escape sequence</source>
        <translation>ungültige Escape-Sequenz</translation>
    </message>
    <message>
        <source>document too large</source>
        <translation>Dokument zu groß</translation>
    </message>
    <message>
        <source>invalid number</source>
        <translation>ungültige Zahl</translation>
    </message>
    <message>
        <source>number out of range</source>
        <translation>Zahl außerhalb des Wertebereichs</translation>
    </message>
    <message>
        <source>invalid value</source>
        <translation>ungültiger Wert</translation>
    </message>
    <message>
        <source>expected a member name</source>
        <translation>Name eines Objektelements erwartet</translation>
    </message>
    <message>
        <source>expected &apos;:&apos;</source>
        <translation>„:“ erwartet</translation>
    </message>
    <message>
        <source>unexpected end of the document</source>
        <translation>unerwartetes Ende des Dokuments</translation>
    </message>
    <message>
        <source>too deeply nested document</source>
        <translation>zu tief verschachteltes Dokument</translation>
    </message>
    <message>
        <source>garbage after the document</source>
        <translation>überzählige Zeichen nach dem Dokument</translation>
    </message>
    <message>
        <source>expected &apos;,&apos; or &apos;}&apos;</source>
        <translation>„,“ oder „}“ erwartet</translation>
    </message>
    <message>
        <source>expected &apos;,&apos; or &apos;]&apos;</source>
        <translation>„,“ oder „]“ erwartet</translation>
    </message>
</context>
<context>
    <name>PriceTable</name>
    <message>
        <source>not a JSON object: %1</source>
        <translation>kein JSON-Objekt: %1</translation>
    </message>
    <message>
        <source>&quot;format&quot; must be &quot;callscope-prices&quot;</source>
        <translation>&quot;format&quot; muss &quot;callscope-prices&quot; sein</translation>
    </message>
    <message>
        <source>/models/%1 needs numbers &quot;input&quot; and &quot;output&quot;</source>
        <translation>/models/%1 braucht die Zahlen &quot;input&quot; und &quot;output&quot;</translation>
    </message>
    <message>
        <source>the table shipped with Callscope</source>
        <translation>die mit Callscope mitgelieferte Tabelle</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>PromptfooImport</name>
    <message>
        <source>the prompt uses Nunjucks beyond {{name}} (tags, filters or paths); Callscope fills plain {{name}} placeholders only</source>
        <translation>der Prompt nutzt Nunjucks über {{name}} hinaus (Tags, Filter oder Pfade); Callscope füllt nur einfache {{name}}-Platzhalter</translation>
    </message>
    <message>
        <source>a message whose content is not text (images, parts); Callscope takes a chat prompt&apos;s messages as text</source>
        <translation>eine Nachricht, deren Inhalt kein Text ist (Bilder, Teile); Callscope übernimmt die Nachrichten eines Chat-Prompts als Text</translation>
    </message>
    <message>
        <source>a chat prompt with earlier turns (role &quot;%1&quot;); a Callscope call starts from a system prompt and one user message</source>
        <translation>ein Chat-Prompt mit früheren Zügen (Rolle &quot;%1&quot;); ein Callscope-Aufruf beginnt mit einem System-Prompt und einer Benutzernachricht</translation>
    </message>
    <message>
        <source>a chat prompt without a user message</source>
        <translation>ein Chat-Prompt ohne Benutzernachricht</translation>
    </message>
    <message>
        <source>prompt %1</source>
        <translation>Prompt %1</translation>
    </message>
    <message>
        <source>a prompt option Callscope has no counterpart for</source>
        <translation>eine Prompt-Option, für die Callscope kein Gegenstück hat</translation>
    </message>
    <message>
        <source>a prompt is a string, a file:// path or a map</source>
        <translation>ein Prompt ist ein String, ein file://-Pfad oder eine Map</translation>
    </message>
    <message>
        <source>a glob of prompt files; name each file (Callscope reads named files)</source>
        <translation>ein Glob von Prompt-Dateien; nennen Sie jede Datei (Callscope liest benannte Dateien)</translation>
    </message>
    <message>
        <source>a prompt written as a program (.%1) builds its messages by running code; Callscope runs no prompt programs</source>
        <translation>ein als Programm geschriebener Prompt (.%1) baut seine Nachrichten durch Ausführen von Code; Callscope führt keine Prompt-Programme aus</translation>
    </message>
    <message>
        <source>%1 is not a JSON array of messages: %2</source>
        <translation>%1 ist kein JSON-Array von Nachrichten: %2</translation>
    </message>
    <message>
        <source>a chat prompt file is a list of messages</source>
        <translation>eine Chat-Prompt-Datei ist eine Liste von Nachrichten</translation>
    </message>
    <message>
        <source>no Callscope engine for the provider &quot;%1&quot; (Callscope speaks openai:chat, openai:responses, anthropic:messages, google and vertex)</source>
        <translation>keine Callscope-Engine für den Provider &quot;%1&quot; (Callscope spricht openai:chat, openai:responses, anthropic:messages, google und vertex)</translation>
    </message>
    <message>
        <source>the provider &quot;%1&quot; names no model</source>
        <translation>der Provider &quot;%1&quot; nennt kein Modell</translation>
    </message>
    <message>
        <source>&quot;config&quot; is a map of options</source>
        <translation>&quot;config&quot; ist eine Map von Optionen</translation>
    </message>
    <message>
        <source>a provider option a Callscope engine has no counterpart for</source>
        <translation>eine Provider-Option, für die eine Callscope-Engine kein Gegenstück hat</translation>
    </message>
    <message>
        <source>a provider setting Callscope has no counterpart for</source>
        <translation>eine Provider-Einstellung, für die Callscope kein Gegenstück hat</translation>
    </message>
    <message>
        <source>a provider is an id or a map with &quot;id&quot;</source>
        <translation>ein Provider ist eine ID oder eine Map mit &quot;id&quot;</translation>
    </message>
    <message>
        <source>a grading provider Callscope cannot read</source>
        <translation>ein bewertender Provider, den Callscope nicht lesen kann</translation>
    </message>
    <message>
        <source>an assertion is a map with a &quot;type&quot;</source>
        <translation>eine Zusicherung ist eine Map mit einem &quot;type&quot;</translation>
    </message>
    <message>
        <source>a Python assertion runs Python; Callscope runs no Python in its checks (write it as javascript, or as a command assertion)</source>
        <translation>eine Python-Zusicherung führt Python aus; Callscope führt in seinen Prüfungen kein Python aus (schreiben Sie sie als javascript oder als command-Zusicherung)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; compares embeddings, and Callscope has no embeddings engine</source>
        <translation>&quot;%1&quot; vergleicht Embeddings, und Callscope hat keine Embedding-Engine</translation>
    </message>
    <message>
        <source>needs a list of values</source>
        <translation>braucht eine Liste von Werten</translation>
    </message>
    <message>
        <source>needs a &quot;value&quot;</source>
        <translation>braucht einen &quot;value&quot;</translation>
    </message>
    <message>
        <source>a schema is a map or a file:// path</source>
        <translation>ein Schema ist eine Map oder ein file://-Pfad</translation>
    </message>
    <message>
        <source>a transform on an equals with a JSON value</source>
        <translation>ein Transform auf einem equals mit einem JSON-Wert</translation>
    </message>
    <message>
        <source>a JavaScript file needs Node.js modules; Callscope runs inline scripts only (paste the function body as the value)</source>
        <translation>eine JavaScript-Datei braucht Node.js-Module; Callscope führt nur eingebettete Skripte aus (fügen Sie den Funktionsrumpf als Wert ein)</translation>
    </message>
    <message>
        <source>needs a number &quot;threshold&quot;</source>
        <translation>braucht eine Zahl &quot;threshold&quot;</translation>
    </message>
    <message>
        <source>the assertion type &quot;%1&quot; has no Callscope check</source>
        <translation>der Zusicherungstyp &quot;%1&quot; hat keine Callscope-Prüfung</translation>
    </message>
    <message>
        <source>must be a number, 0 or more</source>
        <translation>muss eine Zahl sein, 0 oder mehr</translation>
    </message>
    <message>
        <source>a transform file; Callscope runs inline scripts only</source>
        <translation>eine Transform-Datei; Callscope führt nur eingebettete Skripte aus</translation>
    </message>
    <message>
        <source>a threshold on &quot;%1&quot;, which passes or fails as a whole</source>
        <translation>ein Schwellenwert auf &quot;%1&quot;, das nur als Ganzes besteht oder scheitert</translation>
    </message>
    <message>
        <source>an assertion option Callscope has no counterpart for</source>
        <translation>eine Zusicherungsoption, für die Callscope kein Gegenstück hat</translation>
    </message>
    <message>
        <source>must be a list of assertions</source>
        <translation>muss eine Liste von Zusicherungen sein</translation>
    </message>
    <message>
        <source>an assert-set passes on a share of its checks; list the checks one by one</source>
        <translation>ein assert-set besteht mit einem Anteil seiner Prüfungen; führen Sie die Prüfungen einzeln auf</translation>
    </message>
    <message>
        <source>a list of values runs the test once per value in promptfoo; write one test per value</source>
        <translation>eine Liste von Werten führt den Test in promptfoo einmal je Wert aus; schreiben Sie einen Test je Wert</translation>
    </message>
    <message>
        <source>a var computed by a program; Callscope reads text files only</source>
        <translation>eine von einem Programm berechnete Variable; Callscope liest nur Textdateien</translation>
    </message>
    <message>
        <source>a test is a map (vars, assert, ...)</source>
        <translation>ein Test ist eine Map (vars, assert, ...)</translation>
    </message>
    <message>
        <source>vars that are not a map</source>
        <translation>vars, die keine Map sind</translation>
    </message>
    <message>
        <source>a test option Callscope has no counterpart for</source>
        <translation>eine Test-Option, für die Callscope kein Gegenstück hat</translation>
    </message>
    <message>
        <source>a test threshold passes a test on part of its score; a Callscope case passes when every check passes (the weighted score is reported beside)</source>
        <translation>ein Test-Schwellenwert lässt einen Test mit einem Teil seiner Punktzahl bestehen; ein Callscope-Fall besteht, wenn jede Prüfung besteht (die gewichtete Punktzahl steht daneben)</translation>
    </message>
    <message>
        <source>a test setting Callscope has no counterpart for</source>
        <translation>eine Test-Einstellung, für die Callscope kein Gegenstück hat</translation>
    </message>
    <message>
        <source>tests from a glob or an address; name each file</source>
        <translation>Tests aus einem Glob oder einer Adresse; nennen Sie jede Datei</translation>
    </message>
    <message>
        <source>tests from a .%1 file; Callscope reads CSV, JSONL, JSON and YAML</source>
        <translation>Tests aus einer .%1-Datei; Callscope liest CSV, JSONL, JSON und YAML</translation>
    </message>
    <message>
        <source>not JSON: %1</source>
        <translation>kein JSON: %1</translation>
    </message>
    <message>
        <source>a tests file is a list of tests</source>
        <translation>eine Testdatei ist eine Liste von Tests</translation>
    </message>
    <message>
        <source>a quoted field is not closed</source>
        <translation>ein Feld in Anführungszeichen ist nicht geschlossen</translation>
    </message>
    <message>
        <source>%1 fields, the header has %2</source>
        <translation>%1 Felder, die Kopfzeile hat %2</translation>
    </message>
    <message>
        <source>the column %1 has no Callscope counterpart</source>
        <translation>die Spalte %1 hat kein Gegenstück in Callscope</translation>
    </message>
    <message>
        <source>tests are a list or a file:// path</source>
        <translation>Tests sind eine Liste oder ein file://-Pfad</translation>
    </message>
    <message>
        <source>a defaultTest that is not a map (a file)</source>
        <translation>ein defaultTest, der keine Map ist (eine Datei)</translation>
    </message>
    <message>
        <source>not YAML: %1</source>
        <translation>kein YAML: %1</translation>
    </message>
    <message>
        <source>a promptfoo configuration is a YAML map</source>
        <translation>eine promptfoo-Konfiguration ist eine YAML-Map</translation>
    </message>
    <message>
        <source>missing: the providers to run the prompts on</source>
        <translation>fehlt: die Provider, auf denen die Prompts laufen</translation>
    </message>
    <message>
        <source>missing: the prompts</source>
        <translation>fehlt: die Prompts</translation>
    </message>
    <message>
        <source>red-team plugins and strategies generate attack tests with their own models; Callscope runs the tests it is given</source>
        <translation>Red-Team-Plugins und -Strategien erzeugen Angriffstests mit eigenen Modellen; Callscope führt die Tests aus, die es bekommt</translation>
    </message>
    <message>
        <source>scenarios (groups of vars crossed with tests); write the tests out</source>
        <translation>Szenarien (Gruppen von Variablen, mit Tests gekreuzt); schreiben Sie die Tests aus</translation>
    </message>
    <message>
        <source>extension hooks run JavaScript or Python around the run</source>
        <translation>Erweiterungs-Hooks führen JavaScript oder Python rund um den Lauf aus</translation>
    </message>
    <message>
        <source>derived metrics are computed by promptfoo&apos;s reports</source>
        <translation>abgeleitete Metriken berechnen die Berichte von promptfoo</translation>
    </message>
    <message>
        <source>Nunjucks filters run JavaScript inside the prompts</source>
        <translation>Nunjucks-Filter führen JavaScript in den Prompts aus</translation>
    </message>
    <message>
        <source>environment overrides; set the variables in the environment</source>
        <translation>Umgebungsüberschreibungen; setzen Sie die Variablen in der Umgebung</translation>
    </message>
    <message>
        <source>an evaluate option Callscope has no counterpart for</source>
        <translation>eine Auswertungsoption, für die Callscope kein Gegenstück hat</translation>
    </message>
    <message>
        <source>a setting this converter does not know</source>
        <translation>eine Einstellung, die dieser Konverter nicht kennt</translation>
    </message>
</context>
<context>
    <name>ProviderBatchClient</name>
    <message>
        <source>the provider&apos;s answer named no batch id</source>
        <translation>die Antwort des Anbieters nannte keine Batch-ID</translation>
    </message>
    <message>
        <source>the provider&apos;s answer named no file id</source>
        <translation>die Antwort des Anbieters nannte keine Datei-ID</translation>
    </message>
</context>
<context>
    <name>Replay</name>
    <message>
        <source>call %1</source>
        <translation>Aufruf %1</translation>
    </message>
    <message>
        <source>a recorded call</source>
        <translation>ein aufgezeichneter Aufruf</translation>
    </message>
    <message>
        <source>/replies: expected an array of model replies</source>
        <translation>/replies: ein Array von Modellantworten erwartet</translation>
    </message>
    <message>
        <source>/replies/%1: expected an object with a &quot;message&quot;</source>
        <translation>/replies/%1: ein Objekt mit einer &quot;message&quot; erwartet</translation>
    </message>
    <message>
        <source>/calls: the export holds no call to replay</source>
        <translation>/calls: der Export enthält keinen Aufruf zum Wiedergeben</translation>
    </message>
    <message>
        <source>not a recording: expected &quot;format&quot;: &quot;callscope-recording&quot;, an export, or a stored call</source>
        <translation>keine Aufzeichnung: &quot;format&quot;: &quot;callscope-recording&quot;, ein Export oder ein gespeicherter Aufruf erwartet</translation>
    </message>
    <message>
        <source>%1: invalid JSON at offset %2: %3</source>
        <translation>%1: ungültiges JSON bei Position %2: %3</translation>
    </message>
    <message>
        <source>nothing was sent: the replay engine answers every request with the next reply of its recording</source>
        <translation>nichts wurde gesendet: Die Replay-Engine beantwortet jede Anfrage mit der nächsten Antwort ihrer Aufzeichnung</translation>
    </message>
</context>
<context>
    <name>ResponseCacheStore</name>
    <message>
        <source>reading the response cache</source>
        <translation>beim Lesen des Antwort-Caches</translation>
    </message>
    <message>
        <source>storing a reply in the response cache</source>
        <translation>beim Speichern einer Antwort im Antwort-Cache</translation>
    </message>
    <message>
        <source>trimming the response cache</source>
        <translation>beim Kürzen des Antwort-Caches</translation>
    </message>
    <message>
        <source>clearing the response cache</source>
        <translation>beim Leeren des Antwort-Caches</translation>
    </message>
</context>
<context>
    <name>Review</name>
    <message>
        <source>less agreement than chance</source>
        <translation>weniger Übereinstimmung als zufällig</translation>
    </message>
    <message>
        <source>no agreement beyond chance</source>
        <translation>keine Übereinstimmung über den Zufall hinaus</translation>
    </message>
    <message>
        <source>slight agreement beyond chance</source>
        <translation>geringe Übereinstimmung über den Zufall hinaus</translation>
    </message>
    <message>
        <source>fair agreement beyond chance</source>
        <translation>ausreichende Übereinstimmung über den Zufall hinaus</translation>
    </message>
    <message>
        <source>moderate agreement beyond chance</source>
        <translation>mittlere Übereinstimmung über den Zufall hinaus</translation>
    </message>
    <message>
        <source>substantial agreement beyond chance</source>
        <translation>deutliche Übereinstimmung über den Zufall hinaus</translation>
    </message>
    <message>
        <source>almost perfect agreement</source>
        <translation>fast vollständige Übereinstimmung</translation>
    </message>
    <message>
        <source>%1: no run has both its verdict and a person&apos;s pass or fail yet.</source>
        <translation>%1: noch kein Lauf hat sowohl sein Urteil als auch ein Bestanden oder Durchgefallen eines Menschen.</translation>
    </message>
    <message numerus="yes">
        <source>%1 agrees with people on %2 of %n run(s) (%3%)</source>
        <translation>
            <numerusform>%1 stimmt bei %2 von %n Lauf mit Menschen überein (%3 %)</numerusform>
            <numerusform>%1 stimmt bei %2 von %n Läufen mit Menschen überein (%3 %)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1; kappa cannot be told: the judge and the people gave every run the same verdict.</source>
        <translation>%1; Kappa lässt sich nicht angeben: der Richter und die Menschen gaben jedem Lauf dasselbe Urteil.</translation>
    </message>
    <message>
        <source>%1; kappa %2, %3.</source>
        <translation>%1; Kappa %2, %3.</translation>
    </message>
</context>
<context>
    <name>SchemaCycles</name>
    <message>
        <source>the schema refers back to itself without consuming any input (a $ref cycle: %1), so no value can ever be valid here</source>
        <translation>das Schema verweist auf sich selbst zurück, ohne Eingabe zu verbrauchen (ein $ref-Zyklus: %1), daher kann hier nie ein Wert gültig sein</translation>
    </message>
</context>
<context>
    <name>SchemaDialect</name>
    <message>
        <source>%1 beside &quot;$ref&quot; are ignored in drafts 4 to 7 but apply in 2020-12; the 2020-12 rewrite leaves them out</source>
        <translation>%1 neben &quot;$ref&quot; werden in den Drafts 4 bis 7 ignoriert, gelten aber in 2020-12; die Umschreibung auf 2020-12 lässt sie weg</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: true is draft-04&apos;s way to make &quot;%2&quot; exclusive; 2020-12 writes &quot;%1&quot;: %3 instead of &quot;%2&quot;</source>
        <translation>&quot;%1&quot;: true ist die Art von draft-04, &quot;%2&quot; exklusiv zu machen; 2020-12 schreibt &quot;%1&quot;: %3 statt &quot;%2&quot;</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: %2 is a draft-04 boolean; 2020-12 wants a number there, so the rewrite leaves it out</source>
        <translation>&quot;%1&quot;: %2 ist ein Boolean von draft-04; 2020-12 will dort eine Zahl, daher lässt die Umschreibung es weg</translation>
    </message>
    <message>
        <source>&quot;items&quot;: [...] is the tuple form of drafts 4 to 2019-09; 2020-12 writes &quot;prefixItems&quot;: [...]</source>
        <translation>&quot;items&quot;: [...] ist die Tupelform der Drafts 4 bis 2019-09; 2020-12 schreibt &quot;prefixItems&quot;: [...]</translation>
    </message>
    <message>
        <source> and &quot;items&quot; for what &quot;additionalItems&quot; says about the rest</source>
        <translation> und &quot;items&quot; für das, was &quot;additionalItems&quot; über den Rest sagt</translation>
    </message>
    <message>
        <source>&quot;additionalItems&quot; has no effect without an &quot;items&quot; array; the rewrite leaves it out</source>
        <translation>&quot;additionalItems&quot; wirkt nicht ohne ein &quot;items&quot;-Array; die Umschreibung lässt es weg</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is 2019-09 only; 2020-12 has &quot;$dynamicRef&quot; and &quot;$dynamicAnchor&quot; instead, which are not written for you</source>
        <translation>&quot;%1&quot; gibt es nur in 2019-09; 2020-12 hat stattdessen &quot;$dynamicRef&quot; und &quot;$dynamicAnchor&quot;, die nicht für Sie geschrieben werden</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a keyword of %2 (so it was ignored there); the rewrite leaves it out</source>
        <translation>&quot;%1&quot; ist kein Schlüsselwort von %2 (wurde dort also ignoriert); die Umschreibung lässt es weg</translation>
    </message>
    <message>
        <source>an id with a fragment (%1) names a plain-name anchor; 2020-12 writes &quot;$anchor&quot;: &quot;%2&quot;</source>
        <translation>eine ID mit Fragment (%1) benennt einen Anker mit einfachem Namen; 2020-12 schreibt &quot;$anchor&quot;: &quot;%2&quot;</translation>
    </message>
    <message>
        <source>&quot;id&quot; is draft-04&apos;s spelling; 2020-12 writes &quot;$id&quot;</source>
        <translation>&quot;id&quot; ist die Schreibweise von draft-04; 2020-12 schreibt &quot;$id&quot;</translation>
    </message>
    <message>
        <source>&quot;definitions&quot; is the keyword of drafts 4 to 7; 2020-12 writes &quot;$defs&quot; (and &quot;$ref&quot;: &quot;#/$defs/...&quot;)</source>
        <translation>&quot;definitions&quot; ist das Schlüsselwort der Drafts 4 bis 7; 2020-12 schreibt &quot;$defs&quot; (und &quot;$ref&quot;: &quot;#/$defs/...&quot;)</translation>
    </message>
    <message>
        <source>&quot;dependencies&quot; is split in 2020-12: a list of names is &quot;dependentRequired&quot;, a schema is &quot;dependentSchemas&quot;</source>
        <translation>&quot;dependencies&quot; ist in 2020-12 aufgeteilt: eine Liste von Namen ist &quot;dependentRequired&quot;, ein Schema ist &quot;dependentSchemas&quot;</translation>
    </message>
</context>
<context>
    <name>Store</name>
    <message>
        <source>(document root)</source>
        <translation>(Wurzel des Dokuments)</translation>
    </message>
    <message>
        <source>invalid export document at %1: %2</source>
        <translation>ungültiges Exportdokument bei %1: %2</translation>
    </message>
    <message>
        <source>the export-format schema does not compile: %1</source>
        <translation>das Schema des Exportformats lässt sich nicht kompilieren: %1</translation>
    </message>
    <message>
        <source>call id %1 appears twice (first at /calls/%2)</source>
        <translation>Aufruf-ID %1 kommt doppelt vor (zuerst bei /calls/%2)</translation>
    </message>
    <message>
        <source>parent links form a cycle through call %1</source>
        <translation>die Verweise auf übergeordnete Aufrufe bilden einen Zyklus über Aufruf %1</translation>
    </message>
    <message>
        <source>session id %1 appears twice</source>
        <translation>Sitzungs-ID %1 kommt doppelt vor</translation>
    </message>
    <message>
        <source>compaction id %1 appears twice</source>
        <translation>Verdichtungs-ID %1 kommt doppelt vor</translation>
    </message>
    <message>
        <source>summary call %1 is not in the document&apos;s calls</source>
        <translation>der Zusammenfassungsaufruf %1 gehört nicht zu den Aufrufen des Dokuments</translation>
    </message>
    <message>
        <source>the range ends before it starts</source>
        <translation>der Bereich endet, bevor er beginnt</translation>
    </message>
    <message>
        <source>sequence %1 appears twice in this session</source>
        <translation>Sequenz %1 kommt in dieser Sitzung doppelt vor</translation>
    </message>
    <message>
        <source>compaction %1 is not one of this session&apos;s compactions</source>
        <translation>Verdichtung %1 gehört nicht zu den Verdichtungen dieser Sitzung</translation>
    </message>
    <message>
        <source>a message needs a role</source>
        <translation>eine Nachricht braucht eine Rolle</translation>
    </message>
    <message>
        <source>expected a JSON object</source>
        <translation>ein JSON-Objekt erwartet</translation>
    </message>
    <message>
        <source>not a Callscope export (format must be &quot;%1&quot;)</source>
        <translation>kein Callscope-Export (format muss &quot;%1&quot; sein)</translation>
    </message>
    <message>
        <source>export format version %1 is not supported (this Callscope reads version %2)</source>
        <translation>Exportformat-Version %1 wird nicht unterstützt (dieses Callscope liest Version %2)</translation>
    </message>
    <message>
        <source>cannot import %1: %2</source>
        <translation>%1 kann nicht importiert werden: %2</translation>
    </message>
    <message>
        <source>looking up a call</source>
        <translation>beim Nachschlagen eines Aufrufs</translation>
    </message>
    <message>
        <source>parent call %1 does not exist</source>
        <translation>der übergeordnete Aufruf %1 existiert nicht</translation>
    </message>
    <message>
        <source>looking up a session</source>
        <translation>beim Nachschlagen einer Sitzung</translation>
    </message>
    <message>
        <source>session %1 does not exist</source>
        <translation>Sitzung %1 existiert nicht</translation>
    </message>
    <message>
        <source>storing call</source>
        <translation>beim Speichern des Aufrufs</translation>
    </message>
    <message>
        <source>storing turn %1 of call %2</source>
        <translation>beim Speichern von Runde %1 des Aufrufs %2</translation>
    </message>
    <message>
        <source>storing attempt %1 of call %2</source>
        <translation>beim Speichern von Versuch %1 des Aufrufs %2</translation>
    </message>
    <message>
        <source>session messages given for a call without a session</source>
        <translation>Sitzungsnachrichten für einen Aufruf ohne Sitzung angegeben</translation>
    </message>
    <message>
        <source>reading call %1</source>
        <translation>beim Lesen von Aufruf %1</translation>
    </message>
    <message>
        <source>call %1 does not exist</source>
        <translation>Aufruf %1 existiert nicht</translation>
    </message>
    <message>
        <source>call %1 cannot be its own parent</source>
        <translation>Aufruf %1 kann nicht sein eigener übergeordneter Aufruf sein</translation>
    </message>
    <message>
        <source>updating call %1</source>
        <translation>beim Aktualisieren von Aufruf %1</translation>
    </message>
    <message>
        <source>no call with id %1</source>
        <translation>kein Aufruf mit der ID %1</translation>
    </message>
    <message>
        <source>reading the turns of call %1</source>
        <translation>beim Lesen der Runden von Aufruf %1</translation>
    </message>
    <message>
        <source>reading the attempts of call %1</source>
        <translation>beim Lesen der Versuche von Aufruf %1</translation>
    </message>
    <message>
        <source>reading history</source>
        <translation>beim Lesen des Verlaufs</translation>
    </message>
    <message>
        <source>this database has no search index</source>
        <translation>diese Datenbank hat keinen Suchindex</translation>
    </message>
    <message>
        <source>checking integrity</source>
        <translation>beim Prüfen der Integrität</translation>
    </message>
    <message>
        <source>checking foreign keys</source>
        <translation>beim Prüfen der Fremdschlüssel</translation>
    </message>
    <message>
        <source>checking turns</source>
        <translation>beim Prüfen der Runden</translation>
    </message>
    <message>
        <source>checking attempts</source>
        <translation>beim Prüfen der Versuche</translation>
    </message>
    <message>
        <source>checking session spans</source>
        <translation>beim Prüfen der Sitzungsbereiche</translation>
    </message>
    <message>
        <source>storing session</source>
        <translation>beim Speichern der Sitzung</translation>
    </message>
    <message>
        <source>reading session %1</source>
        <translation>beim Lesen von Sitzung %1</translation>
    </message>
    <message>
        <source>no session with id %1</source>
        <translation>keine Sitzung mit der ID %1</translation>
    </message>
    <message>
        <source>reading sessions</source>
        <translation>beim Lesen der Sitzungen</translation>
    </message>
    <message>
        <source>storing message %1 of session %2</source>
        <translation>beim Speichern von Nachricht %1 der Sitzung %2</translation>
    </message>
    <message>
        <source>reading compactions of session %1</source>
        <translation>beim Lesen der Verdichtungen von Sitzung %1</translation>
    </message>
    <message>
        <source>reading messages of session %1</source>
        <translation>beim Lesen der Nachrichten von Sitzung %1</translation>
    </message>
    <message>
        <source>storing a compaction of session %1</source>
        <translation>beim Speichern einer Verdichtung von Sitzung %1</translation>
    </message>
    <message>
        <source>invalid compaction range %1..%2</source>
        <translation>ungültiger Verdichtungsbereich %1..%2</translation>
    </message>
    <message>
        <source>session %1 has no messages %2..%3 to compact</source>
        <translation>Sitzung %1 hat keine Nachrichten %2..%3 zum Verdichten</translation>
    </message>
    <message>
        <source>marking compacted messages</source>
        <translation>beim Markieren verdichteter Nachrichten</translation>
    </message>
    <message>
        <source>updating session %1</source>
        <translation>beim Aktualisieren von Sitzung %1</translation>
    </message>
    <message>
        <source>database %1 is locked by another program (%2): %3</source>
        <translation>Datenbank %1 ist von einem anderen Programm gesperrt (%2): %3</translation>
    </message>
    <message>
        <source>database %1 is damaged (%2): %3</source>
        <translation>Datenbank %1 ist beschädigt (%2): %3</translation>
    </message>
    <message>
        <source>%1 is not a Callscope database (%2): %3</source>
        <translation>%1 ist keine Callscope-Datenbank (%2): %3</translation>
    </message>
    <message>
        <source>%1 was refused by the database: %2</source>
        <translation>die Datenbank hat abgelehnt (%1): %2</translation>
    </message>
    <message>
        <source>cannot use database %1 (%2): %3</source>
        <translation>Datenbank %1 kann nicht verwendet werden (%2): %3</translation>
    </message>
    <message>
        <source>database error in %1 (%2): %3</source>
        <translation>Datenbankfehler in %1 (%2): %3</translation>
    </message>
    <message>
        <source>no database path given</source>
        <translation>kein Datenbankpfad angegeben</translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 ist keine Datei</translation>
    </message>
    <message>
        <source>%1 is not a Callscope database (it is not an SQLite file); it was left untouched</source>
        <translation>%1 ist keine Callscope-Datenbank (es ist keine SQLite-Datei); sie wurde nicht verändert</translation>
    </message>
    <message>
        <source>opening read-only</source>
        <translation>beim Öffnen im Nur-Lese-Modus</translation>
    </message>
    <message>
        <source>reading the schema version</source>
        <translation>beim Lesen der Schemaversion</translation>
    </message>
    <message>
        <source>(the file was left untouched)</source>
        <translation>(die Datei wurde nicht verändert)</translation>
    </message>
    <message>
        <source>database %1 has schema version %2, made by a newer Callscope; this version reads up to %3. It was left untouched: use the newer Callscope or another --db.</source>
        <translation>Datenbank %1 hat die Schemaversion %2 von einem neueren Callscope; diese Version liest bis %3. Sie wurde nicht verändert: Verwenden Sie das neuere Callscope oder eine andere --db.</translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation>der Ordner %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>opening</source>
        <translation>beim Öffnen</translation>
    </message>
    <message>
        <source>setting up the connection</source>
        <translation>beim Einrichten der Verbindung</translation>
    </message>
    <message>
        <source>database %1 has schema version %2, made by a newer Callscope</source>
        <translation>Datenbank %1 hat die Schemaversion %2 von einem neueren Callscope</translation>
    </message>
    <message>
        <source>migrating to schema version %1</source>
        <translation>beim Migrieren auf Schemaversion %1</translation>
    </message>
    <message>
        <source>reading the schema</source>
        <translation>beim Lesen des Schemas</translation>
    </message>
    <message>
        <source>starting a transaction</source>
        <translation>beim Starten einer Transaktion</translation>
    </message>
    <message>
        <source>committing</source>
        <translation>beim Festschreiben</translation>
    </message>
    <message>
        <source>no open transaction</source>
        <translation>keine offene Transaktion</translation>
    </message>
    <message>
        <source>creating the search table</source>
        <translation>beim Anlegen der Suchtabelle</translation>
    </message>
    <message>
        <source>reading calls to index</source>
        <translation>beim Lesen der zu indizierenden Aufrufe</translation>
    </message>
    <message>
        <source>updating the search index</source>
        <translation>beim Aktualisieren des Suchindex</translation>
    </message>
    <message>
        <source>renaming session %1</source>
        <translation>Sitzung %1 wird umbenannt</translation>
    </message>
    <message>
        <source>linking call %1 to batch %2</source>
        <translation>beim Verknüpfen von Aufruf %1 mit Batch %2</translation>
    </message>
    <message>
        <source>storing a batch</source>
        <translation>beim Speichern eines Batches</translation>
    </message>
    <message>
        <source>storing an experiment</source>
        <translation>beim Speichern eines Experiments</translation>
    </message>
    <message>
        <source>reading experiment %1</source>
        <translation>beim Lesen von Experiment %1</translation>
    </message>
    <message>
        <source>storing a run of experiment %1</source>
        <translation>beim Speichern eines Laufs von Experiment %1</translation>
    </message>
    <message>
        <source>reading the runs of experiment %1</source>
        <translation>beim Lesen der Läufe von Experiment %1</translation>
    </message>
    <message>
        <source>looking up a batch</source>
        <translation>beim Nachschlagen eines Batches</translation>
    </message>
    <message>
        <source>reading batch %1</source>
        <translation>beim Lesen von Batch %1</translation>
    </message>
    <message>
        <source>database %1 is read-only: calls could not be stored. Make the file writable or use another --db.</source>
        <translation>die Datenbank %1 ist schreibgeschützt: Aufrufe konnten nicht gespeichert werden. Machen Sie die Datei beschreibbar oder verwenden Sie eine andere --db.</translation>
    </message>
    <message>
        <source>reading the stored experiments</source>
        <translation>beim Lesen der gespeicherten Experimente</translation>
    </message>
    <message>
        <source>storing a provider batch</source>
        <translation>beim Speichern eines Anbieter-Batches</translation>
    </message>
    <message>
        <source>storing the lines of a provider batch</source>
        <translation>beim Speichern der Zeilen eines Anbieter-Batches</translation>
    </message>
    <message>
        <source>updating provider batch %1</source>
        <translation>beim Aktualisieren von Anbieter-Batch %1</translation>
    </message>
    <message>
        <source>storing the results of provider batch %1</source>
        <translation>beim Speichern der Ergebnisse von Anbieter-Batch %1</translation>
    </message>
    <message>
        <source>reading the provider batches of experiment %1</source>
        <translation>beim Lesen der Anbieter-Batches von Experiment %1</translation>
    </message>
    <message>
        <source>reading the provider batch lines of experiment %1</source>
        <translation>beim Lesen der Zeilen der Anbieter-Batches von Experiment %1</translation>
    </message>
    <message>
        <source>storing the %1 of call %2: %3</source>
        <translation>beim Speichern von %1 des Aufrufs %2: %3</translation>
    </message>
    <message>
        <source>storing the exchanges of call %1</source>
        <translation>beim Speichern des Austauschs von Aufruf %1</translation>
    </message>
    <message>
        <source>storing exchange %1 of call %2</source>
        <translation>beim Speichern von Austausch %1 des Aufrufs %2</translation>
    </message>
    <message>
        <source>reading the exchanges of call %1</source>
        <translation>beim Lesen des Austauschs von Aufruf %1</translation>
    </message>
    <message>
        <source>reading the calls of experiment %1</source>
        <translation>beim Lesen der Aufrufe von Experiment %1</translation>
    </message>
    <message>
        <source>database %1 was not migrated, because it could not be backed up first: %2</source>
        <translation>die Datenbank %1 wurde nicht migriert, weil sie vorher nicht gesichert werden konnte: %2</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>%1 is still open in this program; close it first</source>
        <translation>%1 ist in diesem Programm noch geöffnet; schließen Sie sie zuerst</translation>
    </message>
    <message>
        <source>cannot move %1 aside to %2</source>
        <translation>%1 kann nicht nach %2 verschoben werden</translation>
    </message>
    <message>
        <source>%1: rows from %2 on</source>
        <translation>%1: Zeilen ab %2</translation>
    </message>
    <message>
        <source>%1: row %2</source>
        <translation>%1: Zeile %2</translation>
    </message>
    <message>
        <source>%1: rows %2 to %3</source>
        <translation>%1: Zeilen %2 bis %3</translation>
    </message>
    <message>
        <source>writing a backup to %1</source>
        <translation>beim Schreiben einer Sicherung nach %1</translation>
    </message>
    <message>
        <source>no calls table</source>
        <translation>keine Tabelle calls</translation>
    </message>
    <message>
        <source>the backup %1 did not read back: %2</source>
        <translation>die Sicherung %1 ließ sich nicht zurücklesen: %2</translation>
    </message>
    <message>
        <source>cannot name the backup %1</source>
        <translation>die Sicherung %1 kann nicht benannt werden</translation>
    </message>
    <message>
        <source>there is no history at %1</source>
        <translation>unter %1 gibt es keinen Verlauf</translation>
    </message>
    <message>
        <source>there is no backup of %1 to restore</source>
        <translation>es gibt keine Sicherung von %1 zum Wiederherstellen</translation>
    </message>
    <message>
        <source>the backup %1 cannot be read</source>
        <translation>die Sicherung %1 ist nicht lesbar</translation>
    </message>
    <message>
        <source>cannot copy the backup %1 to %2</source>
        <translation>die Sicherung %1 kann nicht nach %2 kopiert werden</translation>
    </message>
    <message>
        <source>cannot put the backup in place at %1 (it is at %2)</source>
        <translation>die Sicherung kann nicht unter %1 eingesetzt werden (sie liegt unter %2)</translation>
    </message>
    <message>
        <source>%1: the whole table</source>
        <translation>%1: die ganze Tabelle</translation>
    </message>
    <message>
        <source>rows whose parent row was lost: %1</source>
        <translation>Zeilen, deren übergeordnete Zeile verloren ging: %1</translation>
    </message>
    <message>
        <source>cannot put the recovered history in place at %1 (it is at %2)</source>
        <translation>der gerettete Verlauf kann nicht unter %1 eingesetzt werden (er liegt unter %2)</translation>
    </message>
    <message numerus="yes">
        <source>(and %n more problem(s))</source>
        <translation>
            <numerusform>(und %n weiteres Problem)</numerusform>
            <numerusform>(und %n weitere Probleme)</numerusform>
        </translation>
    </message>
    <message>
        <source>looking up a recovered call</source>
        <translation>beim Nachschlagen eines wiederhergestellten Aufrufs</translation>
    </message>
    <message>
        <source>reading the judges of experiment %1</source>
        <translation>beim Lesen der Bewerter von Experiment %1</translation>
    </message>
    <message>
        <source>finding the call before %1</source>
        <translation>beim Suchen des Aufrufs vor %1</translation>
    </message>
    <message>
        <source>the history on %1 is busy (%2): %3</source>
        <translation>der Verlauf auf %1 ist belegt (%2): %3</translation>
    </message>
    <message>
        <source>the history on %1 is read-only for this user (%2): %3</source>
        <translation>der Verlauf auf %1 ist für diesen Benutzer schreibgeschützt (%2): %3</translation>
    </message>
    <message>
        <source>cannot use the history server %1 (%2): %3</source>
        <translation>der Verlaufsserver %1 kann nicht verwendet werden (%2): %3</translation>
    </message>
    <message>
        <source>%1 is not a PostgreSQL history URL (%2)</source>
        <translation>%1 ist keine PostgreSQL-Verlaufs-URL (%2)</translation>
    </message>
    <message>
        <source>%1: a password does not belong in the history URL (it would show in the process list and the settings); keep it in the keychain or in PGPASSFILE</source>
        <translation>%1: ein Passwort gehört nicht in die Verlaufs-URL (es wäre in der Prozessliste und in den Einstellungen zu sehen); bewahren Sie es im Schlüsselbund oder in PGPASSFILE auf</translation>
    </message>
    <message>
        <source>cannot open %1: Qt&apos;s PostgreSQL driver (QPSQL, Debian package libqt6sql6-psql) is not installed</source>
        <translation>%1 kann nicht geöffnet werden: Qts PostgreSQL-Treiber (QPSQL, Debian-Paket libqt6sql6-psql) ist nicht installiert</translation>
    </message>
    <message>
        <source>%1: unknown parameter %2 (the URL takes host, sslmode, sslrootcert, sslcert, sslkey, sslcrl, connect_timeout, application_name)</source>
        <translation>%1: unbekannter Parameter %2 (die URL nimmt host, sslmode, sslrootcert, sslcert, sslkey, sslcrl, connect_timeout, application_name)</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>Verbindungsaufbau</translation>
    </message>
    <message>
        <source>the history on %1 has schema version %2, made by a newer Callscope; this version reads up to %3. It was left untouched: use the newer Callscope.</source>
        <translation>der Verlauf auf %1 hat die Schemaversion %2 von einem neueren Callscope; diese Version liest bis %3. Er wurde nicht verändert: verwenden Sie das neuere Callscope.</translation>
    </message>
    <message>
        <source>migrating the schema</source>
        <translation>Migration des Schemas</translation>
    </message>
    <message>
        <source>database %1 does not exist</source>
        <translation>die Datenbank %1 existiert nicht</translation>
    </message>
    <message>
        <source>database %1 has schema version %2 and needs version %3: a reader cannot migrate it</source>
        <translation>die Datenbank %1 hat die Schemaversion %2 und braucht Version %3: ein Leser kann sie nicht migrieren</translation>
    </message>
    <message>
        <source>importing call %1</source>
        <translation>beim Importieren von Aufruf %1</translation>
    </message>
    <message>
        <source>looking up call %1</source>
        <translation>beim Nachschlagen von Aufruf %1</translation>
    </message>
    <message>
        <source>storing a label of experiment %1</source>
        <translation>beim Speichern einer Bewertung von Experiment %1</translation>
    </message>
    <message>
        <source>the label of experiment %1 was not stored</source>
        <translation>die Bewertung von Experiment %1 wurde nicht gespeichert</translation>
    </message>
    <message>
        <source>removing a label of experiment %1</source>
        <translation>beim Entfernen einer Bewertung von Experiment %1</translation>
    </message>
    <message>
        <source>reading the labels of experiment %1</source>
        <translation>beim Lesen der Bewertungen von Experiment %1</translation>
    </message>
    <message>
        <source>looking up session %1</source>
        <translation>beim Nachschlagen von Sitzung %1</translation>
    </message>
    <message>
        <source>reading the role&apos;s privileges</source>
        <translation>beim Lesen der Rechte der Rolle</translation>
    </message>
    <message>
        <source>the history on %1 is read-only for the role %2: calls could not be stored, so none is run. Browsing it (history, show, export) works; running calls needs a role that may write.</source>
        <translation>der Verlauf auf %1 ist für die Rolle %2 schreibgeschützt: Aufrufe könnten nicht gespeichert werden, also wird keiner ausgeführt. Ansehen (history, show, export) geht; zum Ausführen von Aufrufen braucht es eine Rolle, die schreiben darf.</translation>
    </message>
    <message>
        <source>giving the stored rows their UUIDs</source>
        <translation>beim Vergeben der UUIDs an die gespeicherten Zeilen</translation>
    </message>
    <message>
        <source>database %1 was not migrated to schema version %2: table %3 row %4 refers to a row that does not exist</source>
        <translation>Die Datenbank %1 wurde nicht auf Schemaversion %2 umgestellt: Tabelle %3, Zeile %4 verweist auf eine Zeile, die es nicht gibt</translation>
    </message>
    <message>
        <source>reordering the calls table</source>
        <translation>beim Neuordnen der Tabelle der Aufrufe</translation>
    </message>
    <message>
        <source>cannot reach the history server %1 (%2): %3</source>
        <translation>der Verlaufsserver %1 ist nicht erreichbar (%2): %3</translation>
    </message>
    <message>
        <source>tuning the search index&apos;s statistics</source>
        <translation>die Statistik des Suchindex wird angepasst</translation>
    </message>
</context>
<context>
    <name>TelemetrySettings</name>
    <message numerus="yes">
        <source>The keychain is gone: %n header value(s) not read.</source>
        <translation>
            <numerusform>Der Schlüsselbund ist nicht mehr da: %n Header-Wert nicht gelesen.</numerusform>
            <numerusform>Der Schlüsselbund ist nicht mehr da: %n Header-Werte nicht gelesen.</numerusform>
        </translation>
    </message>
    <message>
        <source>The header %1 has no value in the keychain.</source>
        <translation>Der Header %1 hat keinen Wert im Schlüsselbund.</translation>
    </message>
    <message>
        <source>The value of the header %1 cannot be read: %2</source>
        <translation>Der Wert des Headers %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>The collector at %1 answered %2 and took the test span.</source>
        <translation>Der Collector unter %1 hat mit %2 geantwortet und den Test-Span angenommen.</translation>
    </message>
    <message>
        <source>The collector at %1 refused the test span with HTTP %2.</source>
        <translation>Der Collector unter %1 hat den Test-Span mit HTTP %2 abgelehnt.</translation>
    </message>
    <message>
        <source>Nothing answered at %1: %2</source>
        <translation>Unter %1 hat nichts geantwortet: %2</translation>
    </message>
</context>
<context>
    <name>Tr</name>
    <message>
        <source>The trace link needs {trace_id} where the trace&apos;s id goes.</source>
        <translation>Der Trace-Link braucht {trace_id} an der Stelle der Trace-ID.</translation>
    </message>
    <message>
        <source>The trace link must be an http or https address, for example http://localhost:16686/trace/{trace_id}.</source>
        <translation>Der Trace-Link muss eine http- oder https-Adresse sein, zum Beispiel http://localhost:16686/trace/{trace_id}.</translation>
    </message>
</context>
<context>
    <name>TransferController</name>
    <message>
        <source>Cancelled; nothing was written.</source>
        <translation>Abgebrochen; es wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>The history cannot be opened: %1</source>
        <translation>Der Verlauf kann nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>Reading the rows…</source>
        <translation>Zeilen werden gelesen …</translation>
    </message>
    <message>
        <source>The export failed: %1</source>
        <translation>Der Export ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Writing JSON…</source>
        <translation>JSON wird geschrieben …</translation>
    </message>
    <message>
        <source>Saving the file…</source>
        <translation>Datei wird gespeichert …</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Parsing…</source>
        <translation>Wird eingelesen …</translation>
    </message>
    <message>
        <source>%1 is not valid JSON: %2 at byte %3.</source>
        <translation>%1 ist kein gültiges JSON: %2 bei Byte %3.</translation>
    </message>
    <message>
        <source>Checking the document…</source>
        <translation>Dokument wird geprüft …</translation>
    </message>
    <message>
        <source>%1 is not a Callscope export: %2</source>
        <translation>%1 ist kein Callscope-Export: %2</translation>
    </message>
    <message>
        <source>%1 is not a Callscope export: %2 (at %3)</source>
        <translation>%1 ist kein Callscope-Export: %2 (bei %3)</translation>
    </message>
    <message>
        <source>Writing the rows…</source>
        <translation>Zeilen werden geschrieben …</translation>
    </message>
    <message>
        <source>The import failed: %1</source>
        <translation>Der Import ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The import failed: %1 (at %2)</source>
        <translation>Der Import ist fehlgeschlagen: %1 (bei %2)</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n call(s) to %1.</source>
        <translation>
            <numerusform>%n Aufruf nach %1 exportiert.</numerusform>
            <numerusform>%n Aufrufe nach %1 exportiert.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported %n call(s)</source>
        <translation>
            <numerusform>%n Aufruf</numerusform>
            <numerusform>%n Aufrufe</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n session(s) from %1.</source>
        <translation>
            <numerusform> und %n Sitzung aus %1 importiert.</numerusform>
            <numerusform> und %n Sitzungen aus %1 importiert.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nothing new in %1: its %n call(s) are already in this history.</source>
        <translation>
            <numerusform>Nichts Neues in %1: sein %n Aufruf ist schon in diesem Verlauf.</numerusform>
            <numerusform>Nichts Neues in %1: seine %n Aufrufe sind schon in diesem Verlauf.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) were already in this history and were not stored again.</source>
        <translation>
            <numerusform>%n Aufruf war schon in diesem Verlauf und wurde nicht noch einmal gespeichert.</numerusform>
            <numerusform>%n Aufrufe waren schon in diesem Verlauf und wurden nicht noch einmal gespeichert.</numerusform>
        </translation>
    </message>
</context>
</TS>
