#pragma once

// The sidebar's Files page: the workspace folder (File > Open Folder…, remembered in the
// settings) as a tree of its spec and experiment files, and the recent files below it.
// Activating a file asks the window to open it.

#include <QDockWidget>

class QFileSystemModel;
class QLabel;
class QListWidget;
class QTreeView;

namespace Callscope {

class FilesDock final : public QDockWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FilesDock)

public:
    explicit FilesDock(QWidget *parent = nullptr);
    ~FilesDock() override;

    QTreeView *workspaceView() const { return m_workspaceView; }
    QListWidget *recentList() const { return m_recentList; }
    QString workspaceFolder() const { return m_workspaceFolder; }
    // Lists `folder` (remembered in the settings); a folder that is not there: none.
    void setWorkspaceFolder(const QString &folder);
    // Asks for a folder (a non-modal dialog), then lists it and comes forward.
    void showOpenFolderDialog();
    void setRecentFiles(const QStringList &files);

Q_SIGNALS:
    void fileActivated(const QString &path);
    void workspaceFolderChanged(const QString &folder);
    // A folder was picked in the dialog: the window brings the page forward.
    void folderChosen();

private:
    QTreeView *m_workspaceView = nullptr;
    QFileSystemModel *m_fsModel = nullptr;
    QListWidget *m_recentList = nullptr;
    QLabel *m_workspaceLabel = nullptr;
    QString m_workspaceFolder;
};

} // namespace Callscope
