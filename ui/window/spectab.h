#pragma once

// One spec tab of the main window: the spec's editor on the left (the form and the JSON text,
// two views of one SpecDocument) and its own run panel on the right, so a run, its transcript,
// its status and its breakpoints belong to this spec and nothing carries over to another.

#include "core/model/spec.h"

#include <QWidget>

#include <optional>

class QSplitter;
class QTabWidget;

namespace Callscope {

class JsonEditor;
class NoticeBar;
class RunPanel;
class SpecDocument;
class SpecFormEditor;
class StudioServices;

class SpecTab final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SpecTab)

public:
    // The tab owns `document`.
    SpecTab(SpecDocument *document, StudioServices *services, QWidget *parent = nullptr);
    ~SpecTab() override;

    SpecDocument *document() const { return m_document; }
    SpecFormEditor *form() const { return m_form; }
    JsonEditor *jsonView() const { return m_json; }
    // Form | JSON.
    QTabWidget *editorTabs() const { return m_editorTabs; }
    RunPanel *runPanel() const { return m_run; }
    // Above the editor: why the spec cannot run, why a file could not be read or saved.
    NoticeBar *messageBar() const { return m_messages; }
    QSplitter *splitter() const { return m_splitter; }

    void showForm();
    void showJson();
    // The spec of the document's last check, or nothing (the run panel says why). The run panel
    // asks once the check of the text as it is now has come (the document's whenChecked).
    std::optional<Spec> specForRun();
    // The form shows the document's spec again (after a load or a revert).
    void reloadForm();
    // Moves the JSON view's cursor to the spot a finding names and brings the JSON forward.
    void revealFinding(const QString &pointer, int line, int column);

    // The run waits for the person (approval, breakpoint, manual result).
    bool isWaiting() const { return m_waiting; }

Q_SIGNALS:
    void waitingChanged(bool waiting);

private:
    void updateBanner();

    SpecDocument *m_document = nullptr;
    SpecFormEditor *m_form = nullptr;
    JsonEditor *m_json = nullptr;
    QTabWidget *m_editorTabs = nullptr;
    RunPanel *m_run = nullptr;
    QString m_historyBlock; // why the history cannot store calls (a reader role); empty: it can
    NoticeBar *m_messages = nullptr;
    QSplitter *m_splitter = nullptr;
    bool m_waiting = false;
};

} // namespace Callscope
