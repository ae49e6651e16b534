#include "core/store/runlock.h"

#include "core/store/database.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>

using namespace Qt::StringLiterals;

namespace Callscope {

RunLock::RunLock(std::unique_ptr<QLockFile> file, QString path)
    : m_file(std::move(file))
    , m_path(std::move(path))
{ }

RunLock::~RunLock() = default; // QLockFile removes its file when destroyed

std::unique_ptr<RunLock> RunLock::acquire(const QString &databasePath, const QString &what,
                                          QString *error)
{
    const QFileInfo db(localPathFor(databasePath));
    const QString path = db.absoluteDir().filePath(db.fileName() + u"."_s + what + u".lock"_s);
    auto file = std::make_unique<QLockFile>(path);
    // Age alone never makes a lock stale (a batch may run for hours); a dead holder does.
    file->setStaleLockTime(0);
    if (file->tryLock(0))
        return std::unique_ptr<RunLock>(new RunLock(std::move(file), path));
    if (error) {
        qint64 pid = 0;
        QString host;
        QString app;
        if (file->error() == QLockFile::LockFailedError && file->getLockInfo(&pid, &host, &app)) {
            *error =
                QCoreApplication::translate("Callscope::RunLock", "in use by %1 (process %2 on %3)")
                    .arg(app.isEmpty() ? u"another program"_s : app)
                    .arg(pid)
                    .arg(host);
        } else {
            *error =
                QCoreApplication::translate("Callscope::RunLock", "cannot make the lock file %1")
                    .arg(path);
        }
    }
    return nullptr;
}

QString RunLock::path() const
{
    return m_path;
}

} // namespace Callscope
