#pragma once

// Places the Experiment view in the main window: a tab beside the spec's Form and JSON (the
// matrix gets the centre, the call it opens shows in History on the right, a comparison in
// Diff below), File › Open Experiment…, and an Experiment menu. It wires the view to the
// window: a cell's call is selected in History (the one call selection of the window), two
// cells are compared in the Diff panel, "Add Variant" reads the spec in the editor or the
// current call.
//
// Built into callscope_ui (it knows the MainWindow and its HistoryDocks).

#include <QObject>

class QAction;
class QMenu;

namespace Callscope {

class ExperimentView;
class MainWindow;

class ExperimentsHost final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExperimentsHost)

public:
    explicit ExperimentsHost(MainWindow *window);
    ~ExperimentsHost() override;

    ExperimentView *view() const { return m_view; }
    QMenu *menu() const { return m_menu; }
    QAction *newAction() const { return m_newAction; }
    QAction *runAction() const { return m_runAction; }
    QAction *stopAction() const { return m_stopAction; }

    // Brings the Experiment tab to the front.
    void showView();
    bool openFile(const QString &path);

private:
    void createActions();
    void createMenus();
    void updateActions();

    MainWindow *m_window = nullptr;
    ExperimentView *m_view = nullptr;
    QMenu *m_menu = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_newAction = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_resumeAction = nullptr;
    QAction *m_fromSpecAction = nullptr;
    QAction *m_fromCallAction = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_reviewAction = nullptr;
};

} // namespace Callscope
