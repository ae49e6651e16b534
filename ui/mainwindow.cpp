#include "ui/mainwindow.h"

namespace Callscope {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Callscope"));
    resize(1200, 800);
}

MainWindow::~MainWindow() = default;

bool MainWindow::openSpecFile(const QString &path)
{
    Q_UNUSED(path);
    return false;
}

} // namespace Callscope
