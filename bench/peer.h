#pragma once

// What the measuring benchmarks share: the shared bench inputs, process CPU time, a printed
// line; and runPeer(), which runs a peer benchmark from bench/peer (node + the npm packages
// installed there) and returns the JSON line it prints, or nothing (with the reason on stdout)
// when it is not installed.

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>

#include <cstdio>
#include <ctime>
#include <optional>

namespace CallscopeBench {

// A file of ../shared/data (CALLSCOPE_SHARED_DATA overrides where that is).
inline QString sharedData(const QString &relative)
{
    QString root = qEnvironmentVariable("CALLSCOPE_SHARED_DATA");
    if (root.isEmpty())
        root = QStringLiteral(CALLSCOPE_SHARED_DATA_DIR);
    return QDir(root).filePath(relative);
}

// Process CPU time: the machine may be shared, so rates are also given per CPU second.
inline double cpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

inline void line(const QString &text)
{
    std::fputs((text + QLatin1Char('\n')).toUtf8().constData(), stdout);
    std::fflush(stdout);
}

inline std::optional<QJsonObject> runPeer(const QString &script, const QString &package,
                                          const QStringList &args)
{
    const QString dir = QStringLiteral(CALLSCOPE_BENCH_SOURCE_DIR "/peer");
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty() || !QFileInfo::exists(dir + QStringLiteral("/node_modules/") + package)) {
        std::printf("peer %s: not installed (cd bench/peer && npm install)\n", qPrintable(package));
        return std::nullopt;
    }
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    peer.start(node, QStringList { dir + QLatin1Char('/') + script } + args);
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
