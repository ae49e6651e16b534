// bench_json [--mb N] [--rounds N]
//
// Compact JSON writing, Qt's writer (QJsonDocument::toJson) against Json::compact (what the
// store, the search index and the CLI use) and Json::writeCompact (the store's piece-by-piece
// path, pieces thrown away here): a text answer of N MB (45 by default) in an object, as a call
// record holds it, and the OpenAPI document of the shared data (many small values). Prints the
// time of each and the peak memory it added (VmHWM after resetting it, Linux).

#include "core/model/jsonwriter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "peer.h"

using namespace Qt::StringLiterals;
using namespace Callscope;

using CallscopeBench::line;
using CallscopeBench::sharedData;

namespace {

qint64 statusKiB(const char *field)
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &l : status.readAll().split('\n')) {
        if (l.startsWith(field))
            return l.mid(qstrlen(field)).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

// Resets the peak RSS to the current RSS (writing 5 to clear_refs, Linux 4.0 and later).
void resetPeak()
{
    QFile clear(u"/proc/self/clear_refs"_s);
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5");
}

void measure(const char *what, int rounds, qint64 inputBytes, const std::function<qint64()> &write)
{
    double best = 1e30;
    qint64 peakKiB = 0;
    qint64 outBytes = 0;
    for (int r = 0; r < rounds; ++r) {
        resetPeak();
        const qint64 before = statusKiB("VmRSS:");
        QElapsedTimer timer;
        timer.start();
        outBytes = write();
        best = std::min(best, double(timer.nsecsElapsed()) / 1e9);
        peakKiB = std::max(peakKiB, statusKiB("VmHWM:") - before);
    }
    line(u"  %1: %2 s, %3 MB/s, peak +%4 MiB for %5 MB of JSON (%6x)"_s.arg(QLatin1StringView(what))
             .arg(best, 0, 'f', 3)
             .arg(double(inputBytes) / 1e6 / best, 0, 'f', 0)
             .arg(double(peakKiB) / 1024.0, 0, 'f', 1)
             .arg(double(outBytes) / 1e6, 0, 'f', 1)
             .arg(double(peakKiB) * 1024.0 / double(std::max<qint64>(outBytes, 1)), 0, 'f', 2));
}

void compare(const char *title, const QJsonObject &object, int rounds)
{
    const qint64 size = Json::compact(object).size();
    line(QString::fromLatin1(title));
    measure("Qt toJson(Compact)", rounds, size,
            [&] { return QJsonDocument(object).toJson(QJsonDocument::Compact).size(); });
    measure("Json::compact", rounds, size, [&] { return Json::compact(object).size(); });
    measure("Json::writeCompact", rounds, size, [&] {
        qint64 n = 0;
        Json::writeCompact(object, [&n](const char *, qsizetype piece) { n += piece; });
        return n;
    });
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    int rounds = 3;
    int megabytes = 45;
    const QStringList args = app.arguments().mid(1);
    for (qsizetype i = 0; i + 1 < args.size(); ++i) {
        if (args.at(i) == u"--rounds")
            rounds = std::max(1, args.at(++i).toInt());
        else if (args.at(i) == u"--mb")
            megabytes = std::max(1, args.at(++i).toInt());
    }
    {
        QString text(qsizetype(megabytes) * 1000 * 1000, u'x');
        text.replace(0, 7, u"Title: "_s);
        const QJsonObject answer { { u"title"_s, text } };
        text = QString();
        compare(qPrintable(u"A %1 MB text answer in an object:"_s.arg(megabytes)), answer, rounds);
    }
    QFile openapi(sharedData(u"openai-openapi.json"_s));
    if (openapi.open(QIODevice::ReadOnly)) {
        const QJsonObject document = QJsonDocument::fromJson(openapi.readAll()).object();
        compare("The OpenAI OpenAPI document:", document, rounds);
    }
    return 0;
}
