#include "ui/editor/schemabuilder.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Callscope {

using Type = SchemaFields::Type;
using Field = SchemaFields::Field;

struct SchemaFieldModel::Node
{
    Field field; // its children live in the nodes below
    Node *parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;

    int row() const
    {
        if (!parent)
            return 0;
        for (size_t i = 0; i < parent->children.size(); ++i) {
            if (parent->children[i].get() == this)
                return int(i);
        }
        return 0;
    }
};

namespace {

void build(SchemaFieldModel::Node *parent, const QList<Field> &fields);

Field collect(const SchemaFieldModel::Node *n)
{
    Field f = n->field;
    f.children.clear();
    if (f.hasChildren()) {
        for (const auto &c : n->children)
            f.children.append(collect(c.get()));
    }
    return f;
}

// A combo box of types for the Type and Item type columns.
class TypeDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                          const QModelIndex &index) const override
    {
        if (index.column() != SchemaFieldModel::TypeColumn
            && index.column() != SchemaFieldModel::ItemTypeColumn)
            return QStyledItemDelegate::createEditor(parent, option, index);
        auto *combo = new QComboBox(parent);
        combo->setObjectName(u"schemaTypeEditor"_s);
        for (Type t : SchemaFields::allTypes()) {
            if (index.column() == SchemaFieldModel::ItemTypeColumn && t == Type::Array)
                continue; // arrays of arrays are edited as JSON
            combo->addItem(SchemaFieldModel::typeLabel(t), int(t));
        }
        // Commit on choice, so one pick is one edit.
        connect(combo, &QComboBox::activated, combo,
                [this, combo] { Q_EMIT const_cast<TypeDelegate *>(this)->commitData(combo); });
        return combo;
    }
    void setEditorData(QWidget *editor, const QModelIndex &index) const override
    {
        if (auto *combo = qobject_cast<QComboBox *>(editor)) {
            combo->setCurrentIndex(combo->findData(index.data(Qt::EditRole).toInt()));
            return;
        }
        QStyledItemDelegate::setEditorData(editor, index);
    }
    void setModelData(QWidget *editor, QAbstractItemModel *model,
                      const QModelIndex &index) const override
    {
        if (auto *combo = qobject_cast<QComboBox *>(editor)) {
            model->setData(index, combo->currentData(), Qt::EditRole);
            return;
        }
        QStyledItemDelegate::setModelData(editor, model, index);
    }
};

QStringList splitValues(const QString &text)
{
    QStringList out;
    for (const QString &part : text.split(u',')) {
        const QString v = part.trimmed();
        if (!v.isEmpty() && !out.contains(v))
            out.append(v);
    }
    return out;
}

} // namespace

namespace {
void build(SchemaFieldModel::Node *parent, const QList<Field> &fields)
{
    for (const Field &f : fields) {
        auto n = std::make_unique<SchemaFieldModel::Node>();
        n->field = f;
        n->field.children.clear();
        n->parent = parent;
        build(n.get(), f.children);
        parent->children.push_back(std::move(n));
    }
}
} // namespace

SchemaFieldModel::SchemaFieldModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Node>())
{ }

SchemaFieldModel::~SchemaFieldModel() = default;

void SchemaFieldModel::setFields(const QList<Field> &fields)
{
    beginResetModel();
    m_root = std::make_unique<Node>();
    build(m_root.get(), fields);
    endResetModel();
}

QList<Field> SchemaFieldModel::fields() const
{
    QList<Field> out;
    for (const auto &c : m_root->children)
        out.append(collect(c.get()));
    return out;
}

void SchemaFieldModel::setReadOnly(bool readOnly)
{
    if (m_readOnly == readOnly)
        return;
    beginResetModel();
    m_readOnly = readOnly;
    endResetModel();
}

SchemaFieldModel::Node *SchemaFieldModel::node(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex SchemaFieldModel::indexOf(Node *n, int column) const
{
    if (!n || n == m_root.get())
        return {};
    return createIndex(n->row(), column, n);
}

bool SchemaFieldModel::canHaveChildren(const QModelIndex &index) const
{
    return index.isValid() && node(index)->field.hasChildren();
}

QModelIndex SchemaFieldModel::addField(const QModelIndex &parent)
{
    if (m_readOnly || (parent.isValid() && !canHaveChildren(parent)))
        return {};
    Node *p = node(parent);
    // A name not used yet at that level.
    QString name;
    for (int i = int(p->children.size()) + 1;; ++i) {
        name = u"field%1"_s.arg(i);
        bool used = false;
        for (const auto &c : p->children)
            used |= c->field.name == name;
        if (!used)
            break;
    }
    const int row = int(p->children.size());
    beginInsertRows(indexOf(p), row, row);
    auto n = std::make_unique<Node>();
    n->field.name = name;
    n->parent = p;
    p->children.push_back(std::move(n));
    endInsertRows();
    Q_EMIT fieldsEdited();
    return index(row, NameColumn, indexOf(p));
}

bool SchemaFieldModel::removeField(const QModelIndex &index)
{
    if (m_readOnly || !index.isValid())
        return false;
    Node *n = node(index);
    Node *p = n->parent;
    const int row = n->row();
    beginRemoveRows(indexOf(p), row, row);
    p->children.erase(p->children.begin() + row);
    endRemoveRows();
    Q_EMIT fieldsEdited();
    return true;
}

QModelIndex SchemaFieldModel::moveField(const QModelIndex &index, int delta)
{
    if (m_readOnly || !index.isValid())
        return {};
    Node *n = node(index);
    Node *p = n->parent;
    const int row = n->row();
    const int to = row + delta;
    if (to < 0 || to >= int(p->children.size()))
        return {};
    const QModelIndex parentIndex = indexOf(p);
    if (!beginMoveRows(parentIndex, row, row, parentIndex, delta > 0 ? to + 1 : to))
        return {};
    std::swap(p->children[size_t(row)], p->children[size_t(to)]);
    endMoveRows();
    Q_EMIT fieldsEdited();
    return this->index(to, index.column(), parentIndex);
}

QModelIndex SchemaFieldModel::index(int row, int column, const QModelIndex &parent) const
{
    Node *p = node(parent);
    if (row < 0 || row >= int(p->children.size()) || column < 0 || column >= ColumnCount)
        return {};
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex SchemaFieldModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOf(node(child)->parent);
}

int SchemaFieldModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(node(parent)->children.size());
}

int SchemaFieldModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QString SchemaFieldModel::typeLabel(Type type)
{
    switch (type) {
    case Type::Any:
        return tr("any");
    case Type::String:
        return tr("text");
    case Type::Number:
        return tr("number");
    case Type::Integer:
        return tr("whole number");
    case Type::Boolean:
        return tr("yes/no");
    case Type::Object:
        return tr("object");
    case Type::Array:
        return tr("list");
    }
    return {};
}

QVariant SchemaFieldModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const Field &f = node(index)->field;
    const bool isArray = f.type == Type::Array;
    if (index.column() == RequiredColumn) {
        if (role == Qt::CheckStateRole)
            return f.required ? Qt::Checked : Qt::Unchecked;
        if (role == Qt::ToolTipRole)
            return tr("The answer must contain this field.");
        return {};
    }
    if (index.column() == NullableColumn) {
        if (role == Qt::CheckStateRole && f.type != Type::Any)
            return f.nullable ? Qt::Checked : Qt::Unchecked;
        if (role == Qt::ToolTipRole)
            return tr("The answer may give null instead of a value (for a field the text may not "
                      "mention).");
        return {};
    }
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case NameColumn:
            return f.name;
        case TypeColumn:
            return role == Qt::EditRole ? QVariant(int(f.type)) : QVariant(typeLabel(f.type));
        case ItemTypeColumn:
            if (!isArray)
                return {};
            return role == Qt::EditRole ? QVariant(int(f.itemType))
                                        : QVariant(typeLabel(f.itemType));
        case DescriptionColumn:
            return f.description;
        case EnumColumn:
            return f.type == Type::String ? f.enumValues.join(u", "_s) : QString();
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case ItemTypeColumn:
            return tr("For a list: the type of each item (an object item has fields of its own).");
        case EnumColumn:
            return f.enumValues.isEmpty() ? tr("For text: the only values allowed, separated by "
                                               "commas. Empty allows any text.")
                                          : f.enumValues.join(u", "_s);
        case DescriptionColumn:
            return f.description.isEmpty() ? tr("Tells the model what to put in the field.")
                                           : f.description;
        default:
            return {};
        }
    }
    return {};
}

bool SchemaFieldModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (m_readOnly || !index.isValid())
        return false;
    Node *n = node(index);
    Field &f = n->field;
    const Field before = f;
    const bool hadChildren = f.hasChildren();
    if (index.column() == RequiredColumn && role == Qt::CheckStateRole) {
        f.required = value.toInt() == Qt::Checked;
    } else if (index.column() == NullableColumn && role == Qt::CheckStateRole) {
        if (f.type == Type::Any)
            return false;
        f.nullable = value.toInt() == Qt::Checked;
    } else if (role == Qt::EditRole) {
        switch (index.column()) {
        case NameColumn: {
            const QString name = value.toString().trimmed();
            if (name.isEmpty())
                return false;
            for (const auto &c : n->parent->children) {
                if (c.get() != n && c->field.name == name)
                    return false; // two fields of one object cannot share a name
            }
            f.name = name;
            break;
        }
        case TypeColumn:
            f.type = Type(value.toInt());
            if (f.type == Type::Any)
                f.nullable = false;
            break;
        case ItemTypeColumn:
            if (f.type != Type::Array)
                return false;
            f.itemType = Type(value.toInt());
            break;
        case DescriptionColumn:
            f.description = value.toString().trimmed();
            break;
        case EnumColumn:
            if (f.type != Type::String)
                return false;
            f.enumValues = splitValues(value.toString());
            break;
        default:
            return false;
        }
    } else {
        return false;
    }
    if (f == before)
        return false;
    if (hadChildren && !f.hasChildren() && !n->children.empty()) {
        beginRemoveRows(index.siblingAtColumn(0), 0, int(n->children.size()) - 1);
        n->children.clear();
        endRemoveRows();
    }
    Q_EMIT dataChanged(index.siblingAtColumn(0), index.siblingAtColumn(ColumnCount - 1));
    Q_EMIT fieldsEdited();
    return true;
}

Qt::ItemFlags SchemaFieldModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    const Field &f = node(index)->field;
    if (index.column() == ItemTypeColumn && f.type != Type::Array)
        return Qt::ItemIsSelectable;
    if (index.column() == EnumColumn && f.type != Type::String)
        return Qt::ItemIsSelectable;
    if (index.column() == NullableColumn && f.type == Type::Any)
        return Qt::ItemIsSelectable;
    if (m_readOnly)
        return flags;
    if (index.column() == RequiredColumn || index.column() == NullableColumn)
        return flags | Qt::ItemIsUserCheckable;
    return flags | Qt::ItemIsEditable;
}

QVariant SchemaFieldModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Field");
    case TypeColumn:
        return tr("Type");
    case ItemTypeColumn:
        return tr("Item type");
    case RequiredColumn:
        return tr("Required");
    case NullableColumn:
        return tr("Or null");
    case DescriptionColumn:
        return tr("Description");
    case EnumColumn:
        return tr("Allowed values");
    default:
        return {};
    }
}

SchemaBuilder::SchemaBuilder(QWidget *parent)
    : QWidget(parent)
    , m_model(new SchemaFieldModel(this))
    , m_view(new QTreeView)
    , m_message(new QLabel)
    , m_add(new QPushButton(tr("Add field")))
    , m_addChild(new QPushButton(tr("Add field inside")))
    , m_remove(new QPushButton(tr("Remove")))
    , m_up(new QPushButton(tr("Move up")))
    , m_down(new QPushButton(tr("Move down")))
    , m_details(new QWidget)
    , m_enumEdit(new QLineEdit)
    , m_descriptionEdit(new QLineEdit)
{
    setObjectName(u"schemaBuilder"_s);
    m_view->setObjectName(u"schemaFields"_s);
    m_view->setAccessibleName(tr("Fields of the response schema"));
    m_view->setModel(m_model);
    m_view->setItemDelegate(new TypeDelegate(m_view));
    m_view->setAlternatingRowColors(true);
    m_view->setUniformRowHeights(true);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                            | QAbstractItemView::SelectedClicked);
    // The short columns fit their words; the allowed values and the description share the
    // rest, so the table never scrolls sideways and the field names stay in view while a long
    // text is edited (the fields below the table give such texts the whole width).
    QHeaderView *header = m_view->header();
    header->setStretchLastSection(true);
    header->setMinimumSectionSize(40);
    header->setSectionResizeMode(SchemaFieldModel::RequiredColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(SchemaFieldModel::NullableColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(SchemaFieldModel::EnumColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(SchemaFieldModel::DescriptionColumn, QHeaderView::Stretch);
    m_view->setColumnWidth(SchemaFieldModel::NameColumn, 105);
    m_view->setColumnWidth(SchemaFieldModel::TypeColumn, 72);
    m_view->setColumnWidth(SchemaFieldModel::ItemTypeColumn, 68);
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Moving to a cell must not scroll the table sideways either: with no scroll bar there
    // would be no way back to the field names.
    m_view->setAutoScroll(false);

    m_details->setObjectName(u"schemaFieldDetails"_s);
    m_enumEdit->setObjectName(u"schemaFieldEnum"_s);
    m_enumEdit->setPlaceholderText(tr("values separated by commas (text fields only)"));
    m_descriptionEdit->setObjectName(u"schemaFieldDescription"_s);
    m_descriptionEdit->setPlaceholderText(tr("what the model should put in this field"));
    auto *details = new QFormLayout(m_details);
    details->setContentsMargins(0, 0, 0, 0);
    details->addRow(tr("Allowed &values:"), m_enumEdit);
    details->addRow(tr("&Description:"), m_descriptionEdit);
    auto commit = [this](QLineEdit *edit, int column) {
        const QModelIndex at = m_view->currentIndex().siblingAtColumn(column);
        if (!at.isValid() || !(m_model->flags(at) & Qt::ItemIsEditable))
            return;
        if (edit->text() != at.data(Qt::EditRole).toString())
            m_model->setData(at, edit->text());
    };
    connect(m_enumEdit, &QLineEdit::editingFinished, this,
            [this, commit] { commit(m_enumEdit, SchemaFieldModel::EnumColumn); });
    connect(m_descriptionEdit, &QLineEdit::editingFinished, this,
            [this, commit] { commit(m_descriptionEdit, SchemaFieldModel::DescriptionColumn); });

    m_message->setObjectName(u"schemaBuilderMessage"_s);
    m_message->setWordWrap(true);
    m_message->setFrameShape(QFrame::StyledPanel);
    m_message->setMargin(6);
    m_message->hide();

    m_add->setObjectName(u"schemaAddField"_s);
    m_addChild->setObjectName(u"schemaAddChildField"_s);
    m_addChild->setToolTip(
        tr("Adds a field to the selected object, or to the objects of the selected list."));
    m_remove->setObjectName(u"schemaRemoveField"_s);
    m_up->setObjectName(u"schemaMoveUp"_s);
    m_down->setObjectName(u"schemaMoveDown"_s);

    m_buttons = new QWidget;
    m_buttons->setObjectName(u"schemaBuilderButtons"_s);
    auto *buttons = new QHBoxLayout(m_buttons);
    buttons->setContentsMargins(0, 0, 0, 0);
    for (QPushButton *b : { m_add, m_addChild, m_remove, m_up, m_down })
        buttons->addWidget(b);
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_message, 0, Qt::AlignTop);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_details);
    layout->addWidget(m_buttons);

    auto current = [this] {
        return m_view->currentIndex().siblingAtColumn(0);
    };
    auto select = [this](const QModelIndex &index) {
        if (!index.isValid())
            return;
        m_view->expand(index.parent());
        m_view->setCurrentIndex(index);
    };
    connect(m_add, &QPushButton::clicked, this, [this, current, select] {
        // Beside the selected field, at its level.
        const QModelIndex at = current();
        const QModelIndex index = m_model->addField(at.isValid() ? at.parent() : QModelIndex());
        select(index);
        m_view->edit(index);
    });
    connect(m_addChild, &QPushButton::clicked, this, [this, current, select] {
        const QModelIndex index = m_model->addField(current());
        select(index);
        m_view->edit(index);
    });
    connect(m_remove, &QPushButton::clicked, this,
            [this, current] { m_model->removeField(current()); });
    connect(m_up, &QPushButton::clicked, this,
            [this, current, select] { select(m_model->moveField(current(), -1)); });
    connect(m_down, &QPushButton::clicked, this,
            [this, current, select] { select(m_model->moveField(current(), 1)); });
    connect(m_model, &SchemaFieldModel::fieldsEdited, this, &SchemaBuilder::emitSchema);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &SchemaBuilder::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &SchemaBuilder::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &SchemaBuilder::updateButtons);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &SchemaBuilder::updateButtons);
    updateButtons();
}

void SchemaBuilder::updateDetails()
{
    const QModelIndex at = m_view->currentIndex();
    auto show = [this, &at](QLineEdit *edit, int column) {
        const QModelIndex cell = at.siblingAtColumn(column);
        const bool editable = cell.isValid() && (m_model->flags(cell) & Qt::ItemIsEditable);
        const QString text = cell.isValid() ? cell.data(Qt::EditRole).toString() : QString();
        if (!edit->hasFocus() && edit->text() != text)
            edit->setText(text);
        edit->setEnabled(editable);
    };
    show(m_enumEdit, SchemaFieldModel::EnumColumn);
    show(m_descriptionEdit, SchemaFieldModel::DescriptionColumn);
}

void SchemaBuilder::setSchemaText(const QString &text)
{
    // Errors the spec's check found belong to the text they were found in.
    if (text != m_text)
        m_errors.clear();
    m_text = text;
    QString problem;
    SchemaFields::Parsed parsed;
    QJsonObject schema;
    if (!text.trimmed().isEmpty()) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            problem = tr(
                "The JSON below is not a valid schema object yet; fix it there to use the fields.");
        } else {
            schema = doc.object();
            // The builder's own edit coming back: keep the rows as they are (and their order).
            if (schema == m_shown && !m_model->isReadOnly())
                return;
            parsed = SchemaFields::fromSchema(schema);
            if (!parsed.representable())
                problem = tr("This schema uses features the builder does not show (%1); edit it in "
                             "the JSON below.")
                              .arg(parsed.unsupported.join(u", "_s));
        }
    }
    m_shown = schema;
    m_closed = parsed.closed;
    m_fields = problem.isEmpty() ? parsed.fields : QList<Field>();
    m_problem = problem;
    showState(true);
}

void SchemaBuilder::setSchemaErrors(const QList<SpecSchemaError> &errors)
{
    if (errors == m_errors)
        return;
    m_errors = errors;
    showState(false);
}

void SchemaBuilder::showState(bool newFields)
{
    QString problem = m_problem;
    if (!m_errors.isEmpty()) {
        // Not a schema the builder lacks a way to show, but one no engine accepts: say what is
        // wrong and where, as Findings does.
        const SpecSchemaError &first = m_errors.constFirst();
        const QString where = first.pointer.isEmpty() ? tr("the top") : first.pointer;
        problem = tr("This schema is not valid JSON Schema, so no engine can use it. At %1: %2.")
                      .arg(where, first.message);
        if (m_errors.size() > 1)
            problem += u' ' + tr("Findings lists the others.");
        problem += u' ' + tr("Fix it in the JSON below.");
    }
    const bool wasReadOnly = m_model->isReadOnly();
    const bool fields = problem.isEmpty();
    if (!fields)
        m_model->setFields({});
    else if (newFields || wasReadOnly)
        m_model->setFields(m_fields);
    m_model->setReadOnly(!fields);
    m_message->setText(problem);
    m_message->setVisible(!fields);
    m_view->setVisible(fields);
    m_details->setVisible(fields);
    m_buttons->setVisible(fields);
    // Read-only, the builder is just its message and leaves the height to the JSON.
    setMaximumHeight(fields ? QWIDGETSIZE_MAX
                            : fontMetrics().lineSpacing() * (m_errors.isEmpty() ? 3 : 5) + 16);
    // Back to fields after the JSON was simplified: give the table its share of the page again.
    if (auto *split = qobject_cast<QSplitter *>(parentWidget()); split && wasReadOnly && fields) {
        const int h = split->height();
        split->setSizes({ h * 3 / 5, h - h * 3 / 5 });
    }
    m_view->expandAll();
    updateButtons();
}

QString SchemaBuilder::message() const
{
    return m_message->isVisible() || !m_message->text().isEmpty() ? m_message->text() : QString();
}

void SchemaBuilder::emitSchema()
{
    m_shown = SchemaFields::toSchema(m_model->fields(), m_closed);
    updateButtons();
    Q_EMIT schemaEdited(m_shown);
}

void SchemaBuilder::updateButtons()
{
    const bool editable = !m_model->isReadOnly();
    const QModelIndex at = m_view->currentIndex().siblingAtColumn(0);
    m_add->setEnabled(editable);
    m_addChild->setEnabled(editable && m_model->canHaveChildren(at));
    m_remove->setEnabled(editable && at.isValid());
    m_up->setEnabled(editable && at.isValid() && at.row() > 0);
    m_down->setEnabled(editable && at.isValid() && at.row() + 1 < m_model->rowCount(at.parent()));
    updateDetails();
}

} // namespace Callscope
