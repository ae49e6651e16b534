#include "ui/widgets/elicitationdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <limits>

using namespace Qt::StringLiterals;

namespace Callscope {

ElicitationDialog::ElicitationDialog(const McpElicitation &request, QWidget *parent)
    : QDialog(parent)
    , m_schema(request.requestedSchema)
{
    setObjectName(u"elicitationDialog"_s);
    setWindowTitle(tr("MCP server \"%1\" asks").arg(request.serverName));
    auto *layout = new QVBoxLayout(this);
    auto *message = new QLabel(request.message);
    message->setWordWrap(true);
    message->setTextFormat(Qt::PlainText);
    layout->addWidget(message);
    auto *form = new QFormLayout;
    layout->addLayout(form);

    const QJsonObject properties = m_schema.value(u"properties"_s).toObject();
    const QJsonArray required = m_schema.value(u"required"_s).toArray();
    for (auto it = properties.constBegin(); it != properties.constEnd(); ++it) {
        const QJsonObject property = it.value().toObject();
        const QString type = property.value(u"type"_s).toString();
        const QJsonValue fallback = property.value(u"default"_s);
        QWidget *field = nullptr;
        if (property.contains(u"enum"_s)) {
            auto *box = new QComboBox;
            const QJsonArray names = property.value(u"enumNames"_s).toArray();
            const QJsonArray values = property.value(u"enum"_s).toArray();
            for (qsizetype i = 0; i < values.size(); ++i)
                box->addItem(names.at(i).toString(values.at(i).toString()),
                             values.at(i).toVariant());
            const int index = box->findData(fallback.toVariant());
            box->setCurrentIndex(index >= 0 ? index : 0);
            field = box;
        } else if (type == u"boolean") {
            auto *box = new QCheckBox;
            box->setChecked(fallback.toBool());
            field = box;
        } else if (type == u"integer") {
            auto *box = new QSpinBox;
            box->setRange(property.contains(u"minimum"_s) ? property.value(u"minimum"_s).toInt()
                                                          : std::numeric_limits<int>::min(),
                          property.contains(u"maximum"_s) ? property.value(u"maximum"_s).toInt()
                                                          : std::numeric_limits<int>::max());
            box->setValue(fallback.toInt());
            field = box;
        } else if (type == u"number") {
            auto *box = new QDoubleSpinBox;
            box->setDecimals(6);
            box->setRange(
                property.contains(u"minimum"_s) ? property.value(u"minimum"_s).toDouble() : -1e15,
                property.contains(u"maximum"_s) ? property.value(u"maximum"_s).toDouble() : 1e15);
            box->setValue(fallback.toDouble());
            field = box;
        } else {
            auto *edit = new QLineEdit(fallback.toString());
            edit->setPlaceholderText(property.value(u"description"_s).toString());
            field = edit;
        }
        field->setObjectName(u"field_"_s + it.key());
        field->setToolTip(property.value(u"description"_s).toString());
        QString label = property.value(u"title"_s).toString(it.key());
        if (required.contains(QJsonValue(it.key())))
            label += u" *"_s;
        form->addRow(label + u':', field);
        m_fields.insert(it.key(), field);
    }
    m_problem = new QLabel;
    m_problem->setObjectName(u"elicitationProblem"_s);
    m_problem->setStyleSheet(u"color: palette(highlight);"_s);
    m_problem->hide();
    layout->addWidget(m_problem);

    auto *buttons = new QDialogButtonBox;
    QPushButton *accept = buttons->addButton(tr("&Send"), QDialogButtonBox::AcceptRole);
    accept->setObjectName(u"elicitationAccept"_s);
    QPushButton *decline = buttons->addButton(tr("&Decline"), QDialogButtonBox::RejectRole);
    decline->setObjectName(u"elicitationDecline"_s);
    layout->addWidget(buttons);
    connect(accept, &QPushButton::clicked, this, [this] { finishWith(u"accept"_s); });
    connect(decline, &QPushButton::clicked, this, [this] { finishWith(u"decline"_s); });
}

ElicitationDialog::~ElicitationDialog() = default;

QJsonObject ElicitationDialog::content() const
{
    QJsonObject content;
    const QJsonObject properties = m_schema.value(u"properties"_s).toObject();
    for (auto it = m_fields.constBegin(); it != m_fields.constEnd(); ++it) {
        QWidget *field = it.value();
        if (auto *box = qobject_cast<QComboBox *>(field))
            content.insert(it.key(), QJsonValue::fromVariant(box->currentData()));
        else if (auto *check = qobject_cast<QCheckBox *>(field))
            content.insert(it.key(), check->isChecked());
        else if (auto *spin = qobject_cast<QSpinBox *>(field))
            content.insert(it.key(), spin->value());
        else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(field))
            content.insert(it.key(), dspin->value());
        else if (auto *edit = qobject_cast<QLineEdit *>(field)) {
            if (!edit->text().isEmpty()
                || properties.value(it.key()).toObject().contains(u"default"_s))
                content.insert(it.key(), edit->text());
        }
    }
    return content;
}

void ElicitationDialog::finishWith(const QString &action)
{
    if (action == u"accept") {
        const QJsonObject values = content();
        for (const QJsonValue &name : m_schema.value(u"required"_s).toArray()) {
            if (!values.contains(name.toString())) {
                m_problem->setText(tr("Fill in \"%1\"; it is required.").arg(name.toString()));
                m_problem->show();
                return;
            }
        }
        m_answer = QJsonObject { { u"action"_s, u"accept"_s }, { u"content"_s, values } };
        accept();
        return;
    }
    m_answer = QJsonObject { { u"action"_s, action } };
    reject();
}

void ElicitationDialog::ask(QWidget *parent, const McpElicitation &request,
                            std::function<void(const QJsonObject &)> reply)
{
    auto *dialog = new ElicitationDialog(request, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QDialog::finished, dialog,
                     [dialog, reply] { reply(dialog->answer()); });
    dialog->open();
}

} // namespace Callscope
