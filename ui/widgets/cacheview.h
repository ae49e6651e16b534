#pragma once

// The prompt cache of one stored call: what it read and wrote and what that saved, and per
// turn the request's prefix as blocks (tools, system prompt, each message) with their token
// estimates, hashes and breakpoints, with the reason a turn that read nothing missed (the
// first block that differs from the request compared, a prefix below the minimum, an expired
// entry). It shows a CacheReport (core/store/cachereport.h).

#include "core/store/cachereport.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QTreeWidget;

namespace Callscope {

class CacheView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CacheView)

public:
    explicit CacheView(QWidget *parent = nullptr);

    // The report and the call's cost with and without the cache (none: the model has no price).
    void setReport(const CacheReport &report, std::optional<double> costUsd,
                   std::optional<double> uncachedUsd);
    void showTurn(int index);

    QString summaryText() const;
    QString reasonText() const;
    QComboBox *turnCombo() const { return m_turn; }
    QTreeWidget *blocks() const { return m_blocks; }

private:
    CacheReport m_report;
    QLabel *m_summary = nullptr;
    QComboBox *m_turn = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_reason = nullptr;
    QTreeWidget *m_blocks = nullptr;
};

} // namespace Callscope
