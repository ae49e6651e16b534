#pragma once

// Helpers shared by the tst_tools test classes: running a job to its end, paths of the test
// scripts and of the npm-installed MCP reference server.

#include "core/model/spec.h"
#include "core/tools/toolkit.h"

#include <QElapsedTimer>
#include <QString>

namespace Callscope::ToolsTest {

struct JobRun
{
    ToolResult result;
    int finishedCount = 0;
    qint64 elapsedMs = 0;
    bool created = false;
};

// Creates, starts and waits (at most `waitMs`) for one job of `toolkit`; then lingers
// `lingerMs` so a second `finished` would be counted.
JobRun runJob(Toolkit &toolkit, const ToolCall &call, int waitMs = 15000, int lingerMs = 0);
ToolCall makeCall(const QString &id, const QString &name, const QJsonObject &arguments = {});

QString script(const QString &name); // tests/data/tools/<name>
QString nodePath(); // empty when node is not installed
QString npmDir(); // CALLSCOPE_NPM_DIR, else the source tree's tests/npm
QString everythingServerScript(); // dist/index.js of server-everything, empty if missing
QString everythingServerVersion(); // from its package.json
McpServerSpec everythingServer(); // node <index.js> stdio
McpServerSpec fakeServer(); // node tests/data/tools/fake_mcp_server.js

ToolSpec commandTool(const QString &name, const QStringList &command, int timeoutMs = 30000);
ToolSpec mcpEntry(const QString &name, const QString &server, int timeoutMs = 30000);

bool processAlive(qint64 pid); // false for a zombie
qint64 peakRssKiB(); // VmHWM of this process

} // namespace Callscope::ToolsTest
