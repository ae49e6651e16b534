#include "ui/editor/specdocument.h"

#include "core/secrets/profilestore.h"
#include "ui/widgets/jsonlocator.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QPlainTextDocumentLayout>
#include <QSaveFile>
#include <QTextCursor>
#include <QTextDocument>
#include <QUndoCommand>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace Callscope {

namespace {

// Checked this long after the last key: findings follow the typing within 300 ms.
constexpr int kCheckDelayMs = 250;
constexpr int kTypingId = 0x7e57;

// What differs between two texts: [start, start + removed) of `before` became `added`.
struct TextDiff
{
    int start = 0;
    int removed = 0;
    QString added;
};

TextDiff diff(const QString &before, const QString &after)
{
    const int limit = int(std::min(before.size(), after.size()));
    int prefix = 0;
    while (prefix < limit && before.at(prefix) == after.at(prefix))
        ++prefix;
    int suffix = 0;
    while (suffix < limit - prefix
           && before.at(before.size() - 1 - suffix) == after.at(after.size() - 1 - suffix))
        ++suffix;
    return { prefix, int(before.size()) - prefix - suffix,
             after.mid(prefix, after.size() - prefix - suffix) };
}

} // namespace

// One step of the document's history: the whole text before and after (spec files are small).
// Typing in the JSON view merges into one step while it goes on at the same spot within a line;
// form edits merge by the form's field.
class TextStep final : public QUndoCommand
{
public:
    TextStep(SpecDocument *document, QString before, QString after, int mergeId)
        : QUndoCommand(QCoreApplication::translate("Callscope::SpecDocument", "Edit spec"))
        , m_document(document)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_id(mergeId)
    {
        const TextDiff d = diff(m_before, m_after);
        m_start = d.start;
        m_removed = d.removed;
        m_added = int(d.added.size());
        m_newline = d.added.contains(u'\n');
    }

    void redo() override
    {
        if (m_first) {
            m_first = false; // the edit is already in the text
            return;
        }
        m_document->applyText(m_after);
        m_document->recheck();
    }
    void undo() override
    {
        m_document->applyText(m_before);
        m_document->recheck();
    }
    int id() const override { return m_id; }
    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *o = static_cast<const TextStep *>(other);
        if (o->m_id != m_id || m_id < 0)
            return false;
        if (m_id == kTypingId) {
            // Characters typed one after another, or deleted backwards or forwards.
            const bool typing = m_removed == 0 && o->m_removed == 0
                && o->m_start == m_start + m_added && !o->m_newline && !m_newline;
            const bool erasing = m_added == 0 && o->m_added == 0
                && (o->m_start + o->m_removed == m_start || o->m_start == m_start);
            if (!typing && !erasing)
                return false;
            if (erasing)
                m_start = o->m_start;
            m_removed += o->m_removed;
            m_added += o->m_added;
        }
        m_after = o->m_after;
        return true;
    }

private:
    SpecDocument *m_document;
    QString m_before;
    QString m_after;
    int m_id;
    int m_start = 0;
    int m_removed = 0;
    int m_added = 0;
    bool m_newline = false;
    bool m_first = true;
};

SpecDocument::SpecDocument(QObject *parent)
    : QObject(parent)
    , m_text(new QTextDocument(this))
    , m_undo(new QUndoStack(this))
{
    m_text->setDocumentLayout(new QPlainTextDocumentLayout(m_text));
    m_text->setUndoRedoEnabled(false);
    m_checkTimer.setSingleShot(true);
    m_checkTimer.setInterval(kCheckDelayMs);
    connect(&m_checkTimer, &QTimer::timeout, this, &SpecDocument::recheck);
    connect(m_text, &QTextDocument::contentsChanged, this, &SpecDocument::onContentsChanged);
    connect(m_undo, &QUndoStack::cleanChanged, this,
            [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
}

SpecDocument::~SpecDocument()
{
    // The stack goes after this body; its last signals must not reach a half-gone document.
    m_undo->disconnect();
    m_text->disconnect(this);
}

QString SpecDocument::displayName() const
{
    return m_path.isEmpty() ? tr("Untitled spec") : QFileInfo(m_path).fileName();
}

QString SpecDocument::text() const
{
    return m_text->toPlainText();
}

bool SpecDocument::isModified() const
{
    return !m_undo->isClean();
}

void SpecDocument::setClean()
{
    m_undo->setClean();
}

int SpecDocument::count(SpecFinding::Severity severity) const
{
    return int(std::count_if(m_findings.cbegin(), m_findings.cend(),
                             [severity](const SpecFinding &f) { return f.severity == severity; }));
}

std::optional<QString> SpecDocument::load(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return file.errorString();
    reset(QString::fromUtf8(file.readAll()), QFileInfo(path).absoluteFilePath());
    return std::nullopt;
}

void SpecDocument::reset(const QString &text, const QString &path)
{
    m_applying = true;
    m_text->setPlainText(text);
    m_applying = false;
    m_shadow = m_text->toPlainText();
    inputsChanged();
    m_undo->clear();
    m_undo->setClean();
    if (path != m_path) {
        m_path = path;
        Q_EMIT pathChanged(m_path);
    }
    Q_EMIT textChanged();
    recheck();
}

std::optional<QString> SpecDocument::saveTo(const QString &path)
{
    QSaveFile file(path);
    const QByteArray bytes = text().toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return file.errorString();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_undo->setClean();
    if (absolute != m_path) {
        m_path = absolute;
        inputsChanged();
        Q_EMIT pathChanged(m_path);
        recheck(); // relative paths in the spec now resolve next to the new file
    }
    return std::nullopt;
}

std::optional<QString> SpecDocument::revert()
{
    if (m_path.isEmpty())
        return tr("the spec has never been saved");
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return file.errorString();
    const QString text = QString::fromUtf8(file.readAll());
    replaceText(text);
    m_undo->setClean();
    return std::nullopt;
}

void SpecDocument::replaceText(const QString &text, int mergeId)
{
    const QString before = m_shadow;
    if (text == before)
        return;
    applyText(text);
    m_undo->push(new TextStep(this, before, m_shadow, mergeId));
    Q_EMIT textChanged();
    m_checkTimer.start();
}

void SpecDocument::applyText(const QString &text)
{
    const QString current = m_text->toPlainText();
    if (current != text) {
        const TextDiff d = diff(current, text);
        m_applying = true;
        QTextCursor cursor(m_text);
        cursor.setPosition(d.start);
        cursor.setPosition(d.start + d.removed, QTextCursor::KeepAnchor);
        cursor.insertText(d.added);
        m_applying = false;
    }
    const QString now = m_text->toPlainText();
    if (now != m_shadow)
        inputsChanged();
    m_shadow = now;
}

void SpecDocument::onContentsChanged()
{
    if (m_applying)
        return;
    // An edit in a view of the text (typing, paste): recorded as a step of the history.
    const QString now = m_text->toPlainText();
    if (now == m_shadow)
        return;
    const QString before = std::exchange(m_shadow, now);
    inputsChanged();
    m_undo->push(new TextStep(this, before, now, kTypingId));
    Q_EMIT textChanged();
    m_checkTimer.start();
}

void SpecDocument::setLintTargetOverride(std::optional<EngineType> type)
{
    m_lintTarget = type;
    inputsChanged();
    recheck();
}

void SpecDocument::setProfileStore(ProfileStore *profiles)
{
    m_profiles = profiles;
    inputsChanged();
    recheck();
}

void SpecDocument::recheck()
{
    m_checkTimer.stop();
    if (m_runningVersion == m_version)
        return; // this very text is being checked
    const quint64 version = m_version;
    m_runningVersion = version;
    const QString text = m_text->toPlainText();
    // The profiles are read here, on this thread; the worker gets a copy.
    const ProfileLookup profiles = m_profiles ? profileLookupFor(*m_profiles) : ProfileLookup();
    // A watcher owned by the document, not QFuture::then(this, ...): Qt 6.4 posts that
    // continuation to its context even when the context is gone by the time the check ends (a
    // document closed while its check ran crashed). The watcher dies with the document and the
    // worker's result is then dropped.
    auto *watcher = new QFutureWatcher<SpecCheck>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, version, text] {
        watcher->deleteLater();
        applyCheck(version, watcher->result(), text);
    });
    watcher->setFuture(
        QtConcurrent::run([bytes = text.toUtf8(), path = m_path, target = m_lintTarget, profiles] {
            return checkSpec(bytes, path, target, profiles);
        }));
}

void SpecDocument::whenChecked(QObject *context, std::function<void()> ready)
{
    if (isCheckCurrent()) {
        ready();
        return;
    }
    m_waiting.append({ QPointer<QObject>(context), std::move(ready) });
    recheck();
}

void SpecDocument::applyCheck(quint64 version, SpecCheck check, const QString &text)
{
    if (version == m_runningVersion)
        m_runningVersion = 0;
    if (version != m_version)
        return; // edited since: the newer text's check is the one to show
    m_check = std::move(check);
    m_checkedVersion = version;
    QList<SpecFinding> findings;
    for (const SpecError &error : std::as_const(m_check.errors)) {
        SpecFinding f;
        f.severity = SpecFinding::Severity::Error;
        f.pointer = error.pointer;
        f.message = error.toString();
        if (m_check.syntaxErrorPosition >= 0) {
            f.source = SpecFinding::Source::Json;
            const auto [line, column] =
                JsonLocator::lineColumn(text, int(m_check.syntaxErrorPosition));
            f.line = line;
            f.column = column;
            f.message = error.message;
        } else {
            f.source = SpecFinding::Source::Spec;
            f.message = error.message;
        }
        findings.append(f);
    }
    for (const SpecSchemaError &error : std::as_const(m_check.schemaErrors)) {
        SpecFinding f;
        f.severity = SpecFinding::Severity::Error;
        f.source = SpecFinding::Source::Schema;
        f.pointer = error.pointer;
        f.message = error.message;
        f.rule = SpecSchemaError::rule();
        f.keyword = error.keyword;
        findings.append(f);
    }
    for (const LintFinding &lint : std::as_const(m_check.findings))
        findings.append(SpecFinding::fromLint(lint));
    m_findings = findings;
    Q_EMIT checked();
    // Those waiting for this text's check; a slot of checked() may have edited it already.
    if (!isCheckCurrent())
        return;
    const auto waiting = std::exchange(m_waiting, {});
    for (const auto &[context, ready] : waiting) {
        if (context)
            ready();
    }
}

} // namespace Callscope
