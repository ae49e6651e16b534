#pragma once

// A table of fields for the common case of a response schema (an object of named fields with
// types, required flags, descriptions, allowed values, nested objects and arrays). It shows the
// schema read from the JSON and reports each edit as a whole new schema; a schema with anything
// it cannot show stays read-only here and is edited as JSON.

#include "core/schema/speccheck.h"
#include "ui/editor/schemafields.h"

#include <QAbstractItemModel>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeView;

namespace Callscope {

class SchemaFieldModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SchemaFieldModel)

public:
    enum Column {
        NameColumn,
        TypeColumn,
        ItemTypeColumn,
        RequiredColumn,
        NullableColumn,
        EnumColumn,
        DescriptionColumn,
        ColumnCount
    };

    explicit SchemaFieldModel(QObject *parent = nullptr);
    ~SchemaFieldModel() override;

    void setFields(const QList<SchemaFields::Field> &fields);
    QList<SchemaFields::Field> fields() const;
    void setReadOnly(bool readOnly);
    bool isReadOnly() const { return m_readOnly; }

    // Edits; each emits fieldsEdited once.
    QModelIndex addField(const QModelIndex &parent);
    bool removeField(const QModelIndex &index);
    QModelIndex moveField(const QModelIndex &index, int delta);
    bool canHaveChildren(const QModelIndex &index) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString typeLabel(SchemaFields::Type type);
    struct Node; // one field in the tree (defined in the .cpp)

Q_SIGNALS:
    void fieldsEdited();

private:
    Node *node(const QModelIndex &index) const;
    QModelIndex indexOf(Node *n, int column = 0) const;
    std::unique_ptr<Node> m_root;
    bool m_readOnly = false;
};

class SchemaBuilder final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SchemaBuilder)

public:
    explicit SchemaBuilder(QWidget *parent = nullptr);

    // Reads the schema text from the JSON view (empty: no schema yet, the builder starts one).
    void setSchemaText(const QString &text);
    // The meta-schema errors the spec's check found in this schema (pointers relative to it), for
    // the text last given: while there are any, the builder says what is wrong and where instead
    // of showing the fields.
    void setSchemaErrors(const QList<SpecSchemaError> &errors);
    bool isReadOnly() const { return m_model->isReadOnly(); }
    QString message() const;
    SchemaFieldModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    // The selected field's allowed values and description, edited at the whole width.
    QLineEdit *enumEdit() const { return m_enumEdit; }
    QLineEdit *descriptionEdit() const { return m_descriptionEdit; }

Q_SIGNALS:
    // The schema after an edit in the builder.
    void schemaEdited(const QJsonObject &schema);

private:
    void updateButtons();
    void updateDetails();
    void emitSchema();
    // Shows the fields, or the message that says why it cannot (`newFields`: the fields were
    // read from a new text).
    void showState(bool newFields);

    SchemaFieldModel *m_model;
    QTreeView *m_view;
    QLabel *m_message;
    QPushButton *m_add;
    QPushButton *m_addChild;
    QPushButton *m_remove;
    QPushButton *m_up;
    QPushButton *m_down;
    QWidget *m_buttons;
    QWidget *m_details;
    QLineEdit *m_enumEdit;
    QLineEdit *m_descriptionEdit;
    bool m_closed = true;
    QJsonObject m_shown; // the schema the builder last read or wrote
    QString m_text; // the schema text last given
    QList<SchemaFields::Field> m_fields; // as read from it
    QString m_problem; // why the builder cannot show it (empty: it can)
    QList<SpecSchemaError> m_errors; // of m_text, from the spec's check
};

} // namespace Callscope
