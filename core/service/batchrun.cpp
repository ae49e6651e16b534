#include "core/service/batchrun.h"

#include "core/model/boundedread.h"
#include "core/service/calljob.h"
#include "core/service/scheduler.h"
#include "core/store/callstore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMimeDatabase>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(BatchRun)
};

} // namespace

std::optional<Attachment> readAttachmentFile(const QString &path, QString *error)
{
    QString why;
    const std::optional<QByteArray> bytes = readFileBounded(path, MaxInputFileBytes, &why);
    if (!bytes) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    const QByteArray &data = *bytes;
    const QString mime = QMimeDatabase().mimeTypeForFileNameAndData(path, data).name();
    return Attachment::fromData(QFileInfo(path).fileName(), mime, data);
}

BatchInputs readBatchInputs(const QString &path)
{
    BatchInputs inputs;
    QFile file(path);
    if (!openForReading(file, &inputs.error))
        return inputs;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    int lineNumber = 0;
    while (!file.atEnd()) {
        bool tooLong = false;
        const QByteArray rawLine = readLineBounded(file, MaxLineBytes, &tooLong);
        ++lineNumber;
        if (tooLong) {
            inputs.error = Tr::tr("%1: line %2 is longer than %3; nothing after it was read")
                               .arg(path)
                               .arg(lineNumber)
                               .arg(sizeText(MaxLineBytes));
            return inputs;
        }
        hash.addData(rawLine);
        const QByteArray raw = rawLine.trimmed();
        if (raw.isEmpty())
            continue;
        BatchLine line;
        line.line = lineNumber;
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson("[" + raw + "]", &parseError);
        if (parseError.error != QJsonParseError::NoError || doc.array().size() != 1) {
            line.error =
                Tr::tr("line %1 is not JSON: %2").arg(lineNumber).arg(parseError.errorString());
        } else if (doc.array().at(0).isString()) {
            line.text = doc.array().at(0).toString();
        } else if (doc.array().at(0).isObject()
                   && doc.array().at(0).toObject().value(u"input"_s).isString()) {
            const QJsonObject item = doc.array().at(0).toObject();
            line.text = item.value(u"input"_s).toString();
            line.metadata = item.value(u"metadata"_s).toObject();
            const QJsonValue attachments = item.value(u"attachments"_s);
            if (!attachments.isUndefined() && !attachments.isArray()) {
                line.error = Tr::tr("line %1: \"attachments\" must be an array of file paths")
                                 .arg(lineNumber);
            } else {
                for (const QJsonValue &p : attachments.toArray()) {
                    if (!p.isString()) {
                        line.error =
                            Tr::tr("line %1: \"attachments\" must be an array of file paths")
                                .arg(lineNumber);
                        break;
                    }
                    line.attachments.append(p.toString());
                }
            }
        } else {
            line.error =
                Tr::tr("line %1: expected a JSON string or an object with a string \"input\"")
                    .arg(lineNumber);
        }
        inputs.lines.append(line);
    }
    inputs.sha256 = hash.result().toHex();
    return inputs;
}

BatchRun::BatchRun(CallService *service, const Spec &spec, const QList<BatchLine> &lines,
                   QObject *parent)
    : QObject(parent)
    , m_service(service)
    , m_spec(spec)
    , m_lines(lines)
    , m_contentCache(new GeminiContentCache(this))
{
    connect(m_contentCache, &GeminiContentCache::notice, this, &BatchRun::notice);
}

BatchRun::~BatchRun() = default;

void BatchRun::start()
{
    if (m_started)
        return;
    m_started = true;
    m_clock.start();
    for (const BatchLine &line : std::as_const(m_lines)) {
        if (m_completed.contains(line.line))
            ++m_resumed;
        else
            ++m_total;
    }
    QTimer::singleShot(0, this, [this] {
        fill();
        checkDone();
    });
}

void BatchRun::fill()
{
    m_fillQueued = false;
    if (!m_service)
        return;
    const int limit = m_service->scheduler()->globalLimit() + m_window;
    // Results wait for the lines before them; a stuck early line must not let the buffer grow
    // without bound, so looking ahead pauses this far ahead of the output.
    const int ahead = std::max(256, 32 * m_service->scheduler()->globalLimit());
    // Lines that need no call (answered earlier, invalid) are answered here and now, never by
    // waiting for a job to finish; a long run of them is taken in slices so the event loop
    // (a GUI, a Ctrl+C) keeps turning, and the next slice follows at once.
    constexpr int slice = 2048;
    int answeredHere = 0;
    while (!m_stopping && !m_halted && m_nextIndex < m_lines.size() && m_running.size() < limit) {
        if (m_nextIndex - m_deliverIndex >= ahead) {
            deliver();
            if (m_nextIndex - m_deliverIndex >= ahead)
                break; // an early line is still running: its end calls fill() again
        }
        if (answeredHere >= slice) {
            m_fillQueued = true;
            QTimer::singleShot(0, this, [this] {
                fill();
                checkDone();
            });
            break;
        }
        const BatchLine &line = m_lines.at(m_nextIndex++);
        if (const qint64 id = m_completed.value(line.line); id > 0) {
            Outcome outcome;
            outcome.resumed = true;
            // It completed: that is what the store's link says, even if the row cannot be read now.
            outcome.result.record.id = id;
            outcome.result.record.status = CallStatus::Completed;
            outcome.result.stored = true;
            if (CallStore *store = m_service->store()) {
                if (auto call = store->getCall(id))
                    outcome.result.record = call.value();
            }
            m_outcomes.insert(line.line, outcome);
            ++answeredHere;
            continue;
        }
        if (!line.error.isEmpty()) {
            Outcome outcome;
            outcome.lineError = line.error;
            m_outcomes.insert(line.line, outcome);
            ++m_done;
            ++m_failed;
            ++answeredHere;
            continue;
        }
        if (!launch(line))
            ++answeredHere;
    }
    deliver();
}

bool BatchRun::launch(const BatchLine &line)
{
    LaunchRequest request;
    request.spec = m_spec;
    request.input.text = line.text;
    request.options.allowedTools = m_allowedTools;
    request.options.metadata = line.metadata;
    request.options.metadata.insert(u"batch_line"_s, line.line);
    request.contentCache = m_contentCache;
    if (m_batchId > 0) {
        request.options.metadata.insert(u"batch_id"_s, m_batchId);
        request.batch = BatchLink { m_batchId, line.line };
    }
    for (const QString &path : line.attachments) {
        QString error;
        auto attachment = readAttachmentFile(path, &error);
        if (!attachment) {
            Outcome outcome;
            outcome.lineError = Tr::tr("line %1: %2").arg(line.line).arg(error);
            m_outcomes.insert(line.line, outcome);
            ++m_done;
            ++m_failed;
            return false;
        }
        request.input.attachments.append(*attachment);
    }
    CallJob *job = m_service->launch(request);
    m_running.insert(line.line, job);
    const int lineNumber = line.line;
    connect(job, &CallJob::finished, this,
            [this, lineNumber](const LaunchResult &result) { onJobFinished(lineNumber, result); });
    return true;
}

void BatchRun::onJobFinished(int line, const LaunchResult &result)
{
    m_running.remove(line);
    Outcome outcome;
    outcome.result = result;
    m_outcomes.insert(line, outcome);
    ++m_done;
    // A reply that is not in the history is not an answer: the line runs again on resume
    // (from the recovery file, when it was kept there, without a new request).
    const bool notStored = !result.storeError.isEmpty();
    if (result.record.status != CallStatus::Completed || notStored)
        ++m_failed;
    if (result.unstoredReply())
        ++m_notStored;
    if (result.storeFatal && !m_halted)
        halt(result.storeError);
    fill();
    checkDone();
}

void BatchRun::halt(const QString &why)
{
    m_halted = true;
    m_haltReason = why;
    // What has not started yet costs nothing: it is not started at all. What runs goes on to
    // its end (its reply is paid for) and is kept in the recovery file.
    const auto running = m_running.values();
    for (const QPointer<CallJob> &job : running) {
        if (job && job->state() == CallJob::State::Queued)
            job->cancel();
    }
    Q_EMIT halted(why);
}

void BatchRun::deliver()
{
    while (m_deliverIndex < m_lines.size()) {
        const int line = m_lines.at(m_deliverIndex).line;
        auto it = m_outcomes.find(line);
        if (it == m_outcomes.end())
            break;
        const Outcome outcome = it.value();
        m_outcomes.erase(it);
        ++m_deliverIndex;
        Q_EMIT lineFinished(line, outcome.result, outcome.resumed, outcome.lineError);
    }
}

void BatchRun::stop()
{
    if (m_stopping || m_finished)
        return;
    m_stopping = true;
    const auto running = m_running.values();
    for (const QPointer<CallJob> &job : running) {
        if (job)
            job->cancel();
    }
    QTimer::singleShot(0, this, [this] { checkDone(); });
}

void BatchRun::checkDone()
{
    if (m_finished || !m_running.isEmpty())
        return;
    if (m_fillQueued || (!m_stopping && !m_halted && m_nextIndex < m_lines.size()))
        return;
    // The explicit cache entries go before the batch is over, whatever ended it.
    if (!m_cacheReleased) {
        if (!m_cacheReleasing) {
            m_cacheReleasing = true;
            m_contentCache->release([this] {
                m_cacheReleased = true;
                checkDone();
            });
        }
        return;
    }
    deliver();
    if (m_stopping || m_halted) {
        // Lines after a gap (never launched) are not reported; what finished is, in order.
        QList<int> rest = m_outcomes.keys();
        std::sort(rest.begin(), rest.end());
        for (int line : rest) {
            const Outcome outcome = m_outcomes.take(line);
            Q_EMIT lineFinished(line, outcome.result, outcome.resumed, outcome.lineError);
        }
    }
    m_finished = true;
    Q_EMIT finished();
}

BatchRun::Progress BatchRun::progress() const
{
    Progress p;
    p.total = m_total;
    p.done = m_done;
    p.failed = m_failed;
    p.inFlight = int(m_running.size());
    p.resumed = m_resumed;
    p.notStored = m_notStored;
    const double seconds = m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0;
    if (seconds > 0.2 && m_done > 0) {
        p.callsPerSecond = m_done / seconds;
        p.etaMs = qint64((m_total - m_done) / p.callsPerSecond * 1000);
    }
    return p;
}

} // namespace Callscope
