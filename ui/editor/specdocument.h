#pragma once

// One open spec: its file, its text, the spec parsed from that text, one undo history for
// every view that edits it (the form and the JSON text), whether it has unsaved changes, and
// its findings. The text is the truth: it is what Save writes, byte for byte; a text that is
// not a valid spec is kept as it is and its errors are listed. The form edits the same text by
// replacing it with the spec it shows, as one undoable step per edit.

#include "core/model/spec.h"
#include "core/schema/speccheck.h"
#include "ui/widgets/findingsmodel.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <optional>

class QTextDocument;
class QUndoStack;

namespace Callscope {

class ProfileStore;

class SpecDocument final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SpecDocument)

public:
    explicit SpecDocument(QObject *parent = nullptr);
    ~SpecDocument() override;

    // Reads the file: its text becomes the document's, the history starts over and the
    // document is unmodified. The reason on failure (the document is left as it was).
    std::optional<QString> load(const QString &path);
    // Starts over from `text` with no file (a new spec); unmodified.
    void reset(const QString &text, const QString &path = {});
    // Writes the text to `path`, which becomes the document's file; the reason on failure.
    std::optional<QString> saveTo(const QString &path);
    // Reads the file again, dropping the unsaved changes (which can be undone).
    std::optional<QString> revert();

    QString path() const { return m_path; }
    // The file name, or "Untitled spec".
    QString displayName() const;
    QString text() const;
    // The text as the JSON view shows and edits it. Its own undo is off: the document's
    // undoStack() records every change.
    QTextDocument *textDocument() const { return m_text; }
    QUndoStack *undoStack() const { return m_undo; }
    bool isModified() const;
    // Counts the current text as saved (after a save, or to close without asking).
    void setClean();

    // Replaces the text as one undoable step. Consecutive steps with the same mergeId (>= 0)
    // become one (typing in one form field).
    void replaceText(const QString &text, int mergeId = -1);

    // The spec of the current text, its load errors and lint findings (as of the last check).
    const std::optional<Spec> &spec() const { return m_check.spec; }
    const SpecCheck &check() const { return m_check; }
    const QList<SpecFinding> &findings() const { return m_findings; }
    int count(SpecFinding::Severity severity) const;
    // The engine type lint checks against: the override, else the spec's own.
    EngineType lintTarget() const { return m_check.target; }
    std::optional<EngineType> lintTargetOverride() const { return m_lintTarget; }
    void setLintTargetOverride(std::optional<EngineType> type);
    // The engine profiles the check compares the spec with (the type of a spec that names a
    // profile and no type, the key rules); read afresh for each check.
    void setProfileStore(ProfileStore *profiles);
    // Starts a check of the text now (normally done shortly after each edit). The check runs on
    // a worker thread, so a schema that is costly to check never stops the window; check(),
    // findings() and spec() change, and checked() is sent, when it is done. A check whose text
    // was edited again meanwhile is dropped: only the newest text's check is applied.
    void recheck();
    bool recheckPending() const { return m_checkTimer.isActive(); }
    // How long after the last edit of the text the check starts.
    int checkDelayMs() const { return m_checkTimer.interval(); }
    // check(), findings() and spec() are of the text as it is now.
    bool isCheckCurrent() const { return m_checkedVersion == m_version; }
    // Calls `ready` once the check of the text as it is now has been applied (at once when it
    // has, else after a check it starts if none is under way). Not called when `context` goes.
    void whenChecked(QObject *context, std::function<void()> ready);

Q_SIGNALS:
    void textChanged();
    // spec(), check() and findings() were computed again.
    void checked();
    void modifiedChanged(bool modified);
    void pathChanged(const QString &path);

private:
    friend class TextStep;
    void onContentsChanged();
    // Sets the text to `text` by replacing only the part that differs (the cursor and the
    // scroll position of the views stay where they were); records nothing.
    void applyText(const QString &text);
    // What the check depends on changed (the text, the lint target, the profiles).
    void inputsChanged() { ++m_version; }
    void applyCheck(quint64 version, SpecCheck check, const QString &text);

    QTextDocument *m_text = nullptr;
    QUndoStack *m_undo = nullptr;
    QString m_path;
    QString m_shadow; // the text as last recorded, to see what an edit changed
    bool m_applying = false;
    std::optional<EngineType> m_lintTarget;
    QPointer<ProfileStore> m_profiles;
    SpecCheck m_check;
    quint64 m_version = 1; // of the check's inputs; each change counts one up
    quint64 m_checkedVersion = 0; // of the inputs the applied check was made from
    quint64 m_runningVersion = 0; // of the check under way on a worker thread (0: none)
    QList<std::pair<QPointer<QObject>, std::function<void()>>> m_waiting;
    QList<SpecFinding> m_findings;
    QTimer m_checkTimer;
};

} // namespace Callscope
