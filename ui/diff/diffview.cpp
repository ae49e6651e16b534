#include "ui/diff/diffview.h"

#include "core/store/callstore.h"
#include "ui/diff/diffmodel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

DiffView::DiffView(CallStore *store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_model(new DiffModel(this))
    , m_view(new QTableView(this))
    , m_left(new QLineEdit(this))
    , m_right(new QLineEdit(this))
    , m_onlyDifferences(new QCheckBox(tr("Only differences"), this))
    , m_status(new QLabel(this))
{
    setObjectName(u"diffView"_s);
    m_left->setPlaceholderText(tr("call id"));
    m_right->setPlaceholderText(tr("call id"));
    for (QLineEdit *e : { m_left, m_right }) {
        e->setValidator(new QIntValidator(1, 2147483647, e));
        e->setMaximumWidth(100);
    }
    auto *compareButton = new QPushButton(tr("Compare"), this);
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Left:"), this));
    bar->addWidget(m_left);
    bar->addWidget(new QLabel(tr("Right:"), this));
    bar->addWidget(m_right);
    bar->addWidget(compareButton);
    bar->addWidget(m_onlyDifferences);
    bar->addStretch(1);

    m_view->setModel(m_model);
    m_view->setWordWrap(true);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(DiffModel::WhatColumn,
                                                     QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(DiffModel::LeftColumn, QHeaderView::Stretch);
    m_view->horizontalHeader()->setSectionResizeMode(DiffModel::RightColumn, QHeaderView::Stretch);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);

    connect(compareButton, &QPushButton::clicked, this, &DiffView::compareFromFields);
    connect(m_right, &QLineEdit::returnPressed, this, &DiffView::compareFromFields);
    connect(m_onlyDifferences, &QCheckBox::toggled, this, &DiffView::applyOnlyDifferences);
    connect(m_model, &QAbstractItemModel::modelReset, this, &DiffView::applyOnlyDifferences);
}

DiffView::~DiffView() = default;

QString DiffView::statusText() const
{
    return m_status->text();
}

void DiffView::compareFromFields()
{
    compare(m_left->text().toLongLong(), m_right->text().toLongLong());
}

bool DiffView::compareWithParent(qint64 callId)
{
    if (!m_store)
        return false;
    auto call = m_store->getCall(callId);
    if (!call) {
        m_status->setText(call.error().message);
        return false;
    }
    if (!call->parent) {
        m_right->setText(QString::number(callId));
        m_status->setText(
            tr("Call %1 has no parent; pick the call to compare it with.").arg(callId));
        return false;
    }
    return compare(*call->parent, callId);
}

bool DiffView::compare(qint64 leftId, qint64 rightId)
{
    m_left->setText(leftId > 0 ? QString::number(leftId) : QString());
    m_right->setText(rightId > 0 ? QString::number(rightId) : QString());
    if (!m_store)
        return false;
    auto left = m_store->getCall(leftId);
    auto right = m_store->getCall(rightId);
    if (!left || !right) {
        m_status->setText(
            tr("Cannot compare: %1").arg(!left ? left.error().message : right.error().message));
        return false;
    }
    const CallDiff diff = diffCalls(left.value(), right.value());
    m_model->setDiff(diff);
    m_status->setText(tr("%n difference(s)", nullptr, diff.differenceCount()));
    return true;
}

void DiffView::applyOnlyDifferences()
{
    const bool only = m_onlyDifferences->isChecked();
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const auto state = DiffState(m_model->index(row, 0).data(DiffModel::StateRole).toInt());
        m_view->setRowHidden(row, only && state == DiffState::Same);
    }
}

} // namespace Callscope
