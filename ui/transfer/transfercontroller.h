#pragma once

// Export and import through file dialogs. The work runs on a worker thread (the GUI thread
// runs no SQL), in phases that report progress and stop at the next phase boundary when
// cancelled. An export reads on a read-only connection of its own. An import reads and checks
// the file on the worker and writes the rows through the store writer (setWriter), the
// process's one writing connection; without one, on a connection of the worker's own. A
// cancelled export leaves no file (QSaveFile is never committed); a cancelled import writes
// nothing (the rows are written in one transaction in the last phase, which is not
// interrupted).

#include <QFuture>
#include <QJsonValue>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <memory>

class QFileDialog;
class QProgressDialog;
class QWidget;
template<typename T> class QFutureWatcher;

namespace Callscope {

class StoreWriter;

struct TransferResult
{
    enum class Kind { ExportCall, ExportTree, ExportSession, Import };
    Kind kind = Kind::Import;
    bool ok = false;
    bool cancelled = false;
    QString path;
    QString message; // user-facing: what happened, or what is wrong and where
    QList<qint64> callIds; // imported calls (new ids), or the calls exported
    QList<qint64> sessionIds; // imported sessions (new ids)
};

class TransferController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TransferController)

public:
    // `databasePath`: the history the worker opens its own connection to. `dialogParent`
    // parents the file and progress dialogs.
    TransferController(const QString &databasePath, QWidget *dialogParent, QObject *parent);
    ~TransferController() override;

    bool isBusy() const;
    // Imports write through `writer` (it must outlive the controller); null: on a connection
    // of the worker's own.
    void setWriter(StoreWriter *writer);

    // Ask for a file (a non-modal file dialog), then run.
    void exportCall(qint64 callId);
    void exportTree(qint64 callId);
    void exportSession(qint64 sessionId);
    void importFile();

    // Run without asking.
    void startExport(TransferResult::Kind kind, qint64 id, const QString &path);
    void startImport(const QString &path);
    void cancel();

    QFileDialog *fileDialog() const;
    QProgressDialog *progressDialog() const;

Q_SIGNALS:
    void finished(const Callscope::TransferResult &result);

private:
    void askForFile(TransferResult::Kind kind, qint64 id);
    void watch(const QFuture<TransferResult> &future, const QString &label);
    void onFinished();
    void writeImport(const TransferResult &checked, const QJsonValue &document);
    std::shared_ptr<std::atomic_bool> newStopFlag();

    QString m_databasePath;
    QPointer<QWidget> m_dialogParent;
    QPointer<QFileDialog> m_fileDialog;
    QPointer<QProgressDialog> m_progress;
    QFutureWatcher<TransferResult> *m_watcher = nullptr;
    std::shared_ptr<std::atomic_bool> m_stop;
    StoreWriter *m_writer = nullptr;
    std::shared_ptr<QJsonValue> m_checked; // the import's checked document, for the writer
    bool m_writing = false; // an import's rows are with the writer
};

} // namespace Callscope

Q_DECLARE_METATYPE(Callscope::TransferResult)
