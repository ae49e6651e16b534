#pragma once

// A scroll area for a dock: its content fills the viewport and scrolls only below the
// content's own minimum size. (QScrollArea's widgetResizable sizes content whose layout has a
// height-for-width, such as a word-wrapped label, by its preferred height, which put the Run
// panel's Approve button below the fold at 1280x800.)

#include <QScrollArea>

namespace Callscope {

class FitScrollArea final : public QScrollArea
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FitScrollArea)

public:
    explicit FitScrollArea(QWidget *parent = nullptr);
    ~FitScrollArea() override;

    void setContent(QWidget *content);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fit();
    bool m_fitting = false;
};

} // namespace Callscope
