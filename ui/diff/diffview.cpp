#include "ui/diff/diffview.h"

#include "core/store/callstore.h"
#include "core/store/storereader.h"
#include "ui/diff/diffmodel.h"
#include "ui/widgets/calldiff.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <optional>

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
    m_left->setObjectName(u"diffLeft"_s);
    m_right->setObjectName(u"diffRight"_s);
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

namespace {

// What one comparison read: the two calls' diff, or why there is none.
struct Comparison
{
    std::optional<CallDiff> diff;
    QString error;
    qint64 left = 0; // the parent found for compareWithParent (0: none)
    bool noParent = false;
};

Comparison readComparison(CallStore &store, qint64 leftId, qint64 rightId)
{
    Comparison out;
    if (leftId <= 0) {
        auto call = store.getCall(rightId);
        if (!call) {
            out.error = call.error().message;
            return out;
        }
        if (!call->parent) {
            out.noParent = true;
            return out;
        }
        out.left = leftId = *call->parent;
        auto left = store.getCall(leftId);
        if (!left) {
            out.error = DiffView::tr("Cannot compare: %1").arg(left.error().message);
            return out;
        }
        out.diff = diffCalls(left.value(), call.value());
        return out;
    }
    auto left = store.getCall(leftId);
    auto right = store.getCall(rightId);
    if (!left || !right) {
        out.error = DiffView::tr("Cannot compare: %1")
                        .arg(!left ? left.error().message : right.error().message);
        return out;
    }
    out.diff = diffCalls(left.value(), right.value());
    return out;
}

} // namespace

void DiffView::suggest(qint64 leftId, qint64 rightId)
{
    if (!m_left->text().trimmed().isEmpty() || !m_right->text().trimmed().isEmpty())
        return; // the user's own pair stays
    m_left->setText(leftId > 0 ? QString::number(leftId) : QString());
    m_right->setText(rightId > 0 ? QString::number(rightId) : QString());
}

bool DiffView::compareWithParent(qint64 callId)
{
    m_left->clear();
    m_right->setText(callId > 0 ? QString::number(callId) : QString());
    if (!m_store)
        return false;
    const quint64 ticket = m_comparing = ++m_asked;
    readFromStore<Comparison>(
        m_reader, m_store, this,
        [callId](CallStore &store) { return readComparison(store, 0, callId); },
        [this, ticket, callId](const Comparison *read, const QString &error) {
            if (ticket != m_comparing)
                return;
            m_comparing = 0;
            if (read && read->noParent) {
                m_status->setText(
                    tr("Call %1 has no parent; pick the call to compare it with.").arg(callId));
            } else if (read && read->diff) {
                m_left->setText(QString::number(read->left));
                m_model->setDiff(*read->diff);
                m_status->setText(tr("%n difference(s)", nullptr, read->diff->differenceCount()));
            } else {
                m_status->setText(read ? read->error : error);
            }
            m_lastOk = read && read->diff;
            Q_EMIT compared(m_lastOk);
        });
    return m_comparing != 0 || m_lastOk; // without a reader it is done by now
}

bool DiffView::compare(qint64 leftId, qint64 rightId)
{
    m_left->setText(leftId > 0 ? QString::number(leftId) : QString());
    m_right->setText(rightId > 0 ? QString::number(rightId) : QString());
    if (!m_store)
        return false;
    const quint64 ticket = m_comparing = ++m_asked;
    readFromStore<Comparison>(
        m_reader, m_store, this,
        [leftId, rightId](CallStore &store) {
            if (leftId <= 0 || rightId <= 0) {
                Comparison none;
                none.error = DiffView::tr("Cannot compare: %1").arg(DiffView::tr("pick two calls"));
                return none;
            }
            return readComparison(store, leftId, rightId);
        },
        [this, ticket](const Comparison *read, const QString &error) {
            if (ticket != m_comparing)
                return;
            m_comparing = 0;
            if (read && read->diff) {
                m_model->setDiff(*read->diff);
                m_status->setText(tr("%n difference(s)", nullptr, read->diff->differenceCount()));
            } else {
                m_status->setText(read ? read->error : error);
            }
            m_lastOk = read && read->diff;
            Q_EMIT compared(m_lastOk);
        });
    return m_comparing != 0 || m_lastOk;
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
