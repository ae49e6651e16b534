#include "ui/settings/profilelistmodel.h"

#include "core/secrets/credentialstore.h"
#include "core/secrets/profilestore.h"

using namespace Qt::StringLiterals;

namespace Callscope {

ProfileListModel::ProfileListModel(ProfileStore *profiles, CredentialStore *credentials,
                                   QObject *parent)
    : QAbstractListModel(parent)
    , m_store(profiles)
    , m_credentials(credentials)
{
    reload();
}

ProfileListModel::~ProfileListModel() = default;

void ProfileListModel::reload()
{
    beginResetModel();
    m_list = m_store ? m_store->list() : QList<EngineProfile>();
    endResetModel();
    if (!m_credentials)
        return;
    for (const EngineProfile &p : std::as_const(m_list)) {
        const QString name = p.name;
        m_credentials->readKey(name, this, [this, name](const KeychainResult &result) {
            if (result.usable()) {
                setKeyState(name,
                            result.status == KeychainStatus::Ok ? KeyState::Stored
                                                                : KeyState::Missing);
            } else {
                setKeyState(name, KeyState::Unavailable);
                Q_EMIT keychainProblem(result.message);
            }
        });
    }
}

void ProfileListModel::setKeyState(const QString &name, KeyState state)
{
    m_keyStates.insert(name, state);
    const int row = rowOfProfile(name);
    if (row >= 0)
        Q_EMIT dataChanged(index(row), index(row));
}

int ProfileListModel::rowOfProfile(const QString &name) const
{
    for (int i = 0; i < m_list.size(); ++i) {
        if (m_list.at(i).name == name)
            return i;
    }
    return -1;
}

int ProfileListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_list.size());
}

QVariant ProfileListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const EngineProfile &p = m_list.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return u"%1 — %2 · %3"_s.arg(p.name, engineTypeName(p.type), p.model);
    case NameRole:
        return p.name;
    case KeyStateRole:
        return int(keyState(p.name));
    case Qt::ToolTipRole:
        switch (keyState(p.name)) {
        case KeyState::Stored:
            return tr("A key is stored in the keychain.");
        case KeyState::Missing:
            return tr("No key stored.");
        case KeyState::Unavailable:
            return tr("The keychain cannot be asked.");
        case KeyState::Unknown:
            return tr("Asking the keychain…");
        }
        return {};
    default:
        return {};
    }
}

} // namespace Callscope
