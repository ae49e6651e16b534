#pragma once

// Runs a peer benchmark from bench/peer (node + the npm packages installed there) and returns
// the JSON line it prints, or nothing (with the reason on stdout) when it is not installed.

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>

#include <cstdio>
#include <optional>

namespace CallscopeBench {

inline std::optional<QJsonObject> runPeer(const QString &script, const QString &package, const QStringList &args)
{
    const QString dir = QStringLiteral(CALLSCOPE_BENCH_SOURCE_DIR "/peer");
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty() || !QFileInfo::exists(dir + QStringLiteral("/node_modules/") + package)) {
        std::printf("peer %s: not installed (cd bench/peer && npm install)\n", qPrintable(package));
        return std::nullopt;
    }
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    peer.start(node, QStringList{dir + QLatin1Char('/') + script} + args);
    if (!peer.waitForFinished(600000) || peer.exitCode() != 0) {
        std::printf("peer %s: did not finish\n", qPrintable(script));
        return std::nullopt;
    }
    const QList<QByteArray> lines = peer.readAllStandardOutput().trimmed().split('\n');
    const QJsonDocument doc = QJsonDocument::fromJson(lines.last());
    if (!doc.isObject()) {
        std::printf("peer %s: unreadable output\n", qPrintable(script));
        return std::nullopt;
    }
    return doc.object();
}

} // namespace CallscopeBench
