#include "core/store/recoveryfile.h"

#include "core/store/database.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace Callscope::RecoveryFile {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Callscope::RecoveryFile)
};

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

// An open descriptor holding flock(LOCK_EX); closed (and so unlocked) when it goes.
class LockedFile
{
public:
    LockedFile(const QString &path, int flags)
    {
        const QByteArray name = QFile::encodeName(path);
        m_fd = ::open(name.constData(), flags | O_CLOEXEC, 0600);
        if (m_fd >= 0 && ::flock(m_fd, LOCK_EX) != 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    ~LockedFile()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    LockedFile(const LockedFile &) = delete;
    LockedFile &operator=(const LockedFile &) = delete;
    int fd() const { return m_fd; }

private:
    int m_fd = -1;
};

bool writeAll(int fd, const QByteArray &data)
{
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    return true;
}

// The raw exchanges as JSON: bodies as base64, since a reply's head may end inside a character.
QJsonArray exchangesToJson(const QList<TurnExchange> &exchanges)
{
    QJsonArray out;
    for (const TurnExchange &e : exchanges) {
        out.append(QJsonObject { { u"turn"_s, e.turn },
                                 { u"attempt"_s, e.attempt },
                                 { u"http_status"_s, e.httpStatus },
                                 { u"replayed"_s, e.replayed },
                                 { u"request"_s, QString::fromLatin1(e.request.toBase64()) },
                                 { u"request_bytes"_s, e.requestBytes },
                                 { u"response"_s, QString::fromLatin1(e.response.toBase64()) },
                                 { u"response_bytes"_s, e.responseBytes } });
    }
    return out;
}

QList<TurnExchange> exchangesFromJson(const QJsonArray &array)
{
    QList<TurnExchange> out;
    for (const QJsonValue &value : array) {
        const QJsonObject o = value.toObject();
        TurnExchange e;
        e.turn = o.value(u"turn"_s).toInt();
        e.attempt = o.value(u"attempt"_s).toInt();
        e.httpStatus = o.value(u"http_status"_s).toInt();
        e.replayed = o.value(u"replayed"_s).toBool();
        e.request = QByteArray::fromBase64(o.value(u"request"_s).toString().toLatin1());
        e.requestBytes = o.value(u"request_bytes"_s).toInteger();
        e.response = QByteArray::fromBase64(o.value(u"response"_s).toString().toLatin1());
        e.responseBytes = o.value(u"response_bytes"_s).toInteger();
        out.append(e);
    }
    return out;
}

} // namespace

QString pathFor(const QString &databasePath)
{
    return localPathFor(databasePath) + u".recovered.jsonl"_s;
}

void reserve(const QString &databasePath, qint64 bytes)
{
#ifdef __linux__
    LockedFile file(pathFor(databasePath), O_WRONLY | O_CREAT | O_APPEND);
    if (file.fd() < 0)
        return;
    struct stat info
    {
    };
    if (::fstat(file.fd(), &info) != 0)
        return;
    // Past the end, so the file's size (and what an import reads) does not change.
    ::fallocate(file.fd(), FALLOC_FL_KEEP_SIZE, info.st_size, bytes);
#else
    Q_UNUSED(databasePath);
    Q_UNUSED(bytes);
#endif
}

bool append(const QString &databasePath, const CallRecord &record, const InsertOptions &options,
            const QList<SessionMessage> &sessionMessages, QString *error)
{
    CallRecord kept = record;
    // The entry is found again by its time and id: the time must be the one it is stored with.
    if (!kept.createdAt.isValid())
        kept.createdAt = QDateTime::currentDateTimeUtc();
    QJsonObject line { { u"entry"_s, QUuid::createUuid().toString(QUuid::WithoutBraces) },
                       { u"call"_s, kept.toJson() } };
    if (options.batch)
        line.insert(u"batch"_s,
                    QJsonObject { { u"batch_id"_s, options.batch->batchId },
                                  { u"line"_s, options.batch->line } });
    if (!sessionMessages.isEmpty()) {
        QJsonArray messages;
        for (const SessionMessage &m : sessionMessages)
            messages.append(m.toJson());
        line.insert(u"session_messages"_s, messages);
    }
    if (!record.exchanges.isEmpty())
        line.insert(u"exchanges"_s, exchangesToJson(record.exchanges));
    const QByteArray bytes = QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
    const QString path = pathFor(databasePath);
    LockedFile file(path, O_WRONLY | O_CREAT | O_APPEND);
    if (file.fd() < 0) {
        if (error)
            *error = Tr::tr("cannot open %1: %2").arg(path, systemError());
        return false;
    }
    struct stat before
    {
    };
    ::fstat(file.fd(), &before);
    if (!writeAll(file.fd(), bytes) || ::fdatasync(file.fd()) != 0) {
        if (error)
            *error = Tr::tr("cannot write %1: %2").arg(path, systemError());
        // Never leave half a line: the next append would glue onto it.
        if (::ftruncate(file.fd(), before.st_size) != 0) {
            // Nothing more can be done; the import keeps unreadable lines aside.
        }
        return false;
    }
    return true;
}

ImportOutcome import(CallStore &store, const QString &databasePath)
{
    ImportOutcome outcome;
    const QString path = pathFor(databasePath);
    if (!QFile::exists(path))
        return outcome;
    LockedFile file(path, O_RDWR);
    if (file.fd() < 0) {
        outcome.error = Tr::tr("cannot open %1: %2").arg(path, systemError());
        return outcome;
    }
    QByteArray content;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(file.fd(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            outcome.error = Tr::tr("cannot read %1: %2").arg(path, systemError());
            return outcome;
        }
        if (n == 0)
            break;
        content.append(buffer, n);
    }
    if (content.isEmpty())
        return outcome;
    const QList<QByteArray> lines = content.split('\n');
    QByteArray unreadable;
    QByteArray left;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray &raw = lines.at(i);
        if (raw.trimmed().isEmpty())
            continue;
        if (!outcome.error.isEmpty()) {
            left += raw + '\n';
            continue;
        }
        const QJsonObject line = QJsonDocument::fromJson(raw).object();
        if (!line.value(u"call"_s).isObject()) {
            unreadable += raw + '\n';
            ++outcome.unreadable;
            continue;
        }
        CallRecord record = CallRecord::fromJson(line.value(u"call"_s).toObject());
        record.id = 0;
        record.metadata.insert(u"recovered"_s, true);
        const QString entry = line.value(u"entry"_s).toString();
        if (!entry.isEmpty()) {
            record.metadata.insert(u"recovery_entry"_s, entry);
            // Stored by an import that was stopped before it emptied the file.
            const auto found = store.findRecoveredCall(entry, record.createdAt);
            if (!found) {
                outcome.error = found.error().message;
                left += raw + '\n';
                continue;
            }
            if (*found > 0) {
                ++outcome.alreadyStored;
                continue;
            }
        }
        record.exchanges = exchangesFromJson(line.value(u"exchanges"_s).toArray());
        QList<SessionMessage> sessionMessages;
        for (const QJsonValue &m : line.value(u"session_messages"_s).toArray())
            sessionMessages.append(SessionMessage::fromJson(m.toObject()));
        InsertOptions options;
        if (line.value(u"batch"_s).isObject()) {
            const QJsonObject batch = line.value(u"batch"_s).toObject();
            options.batch = BatchLink { batch.value(u"batch_id"_s).toInteger(),
                                        batch.value(u"line"_s).toInt() };
        }
        const auto id = store.insertCall(record, sessionMessages, options);
        if (!id) {
            const StoreError::Code code = id.error().code;
            if (code == StoreError::Code::Constraint || code == StoreError::Code::InvalidInput
                || code == StoreError::Code::NotFound) {
                // This line will never fit (its batch or session is gone, say): set aside, not
                // retried.
                unreadable += raw + '\n';
                ++outcome.unreadable;
                continue;
            }
            // The database is busy or cannot take it now: this line and the rest wait.
            outcome.error = id.error().message;
            left += raw + '\n';
            continue;
        }
        ++outcome.stored;
    }
    if (!unreadable.isEmpty()) {
        LockedFile bad(path + u".bad"_s, O_WRONLY | O_CREAT | O_APPEND);
        if (bad.fd() >= 0)
            writeAll(bad.fd(), unreadable);
    }
    // What was stored leaves the file; what was not stays for the next run.
    if (::ftruncate(file.fd(), 0) == 0 && !left.isEmpty()) {
        ::lseek(file.fd(), 0, SEEK_SET);
        writeAll(file.fd(), left);
    }
    ::fdatasync(file.fd());
    return outcome;
}

} // namespace Callscope::RecoveryFile
