#include "ui/widgets/studioservices.h"

#include "core/service/appcontext.h"
#include "core/service/callservice.h"
#include "core/store/database.h"
#include "core/store/storereader.h"
#include "ui/widgets/elicitationdialog.h"

#include <QApplication>

namespace Callscope {

StudioServices::StudioServices(AppContext *context, QObject *parent)
    : QObject(parent)
    , m_context(context)
{
    attach();
}

StudioServices::StudioServices(const QString &databasePath, QObject *parent)
    : QObject(parent)
    , m_context(new AppContext(this))
{
    // A history that cannot be opened is said in the window (databaseError()); calls still run.
    m_context->openHistory(databasePath);
    attach();
}

StudioServices::~StudioServices() = default;

StoreReader *StudioServices::reader()
{
    if (!m_reader && store() && database())
        m_reader = new StoreReader(database()->path(), this);
    return m_reader;
}

void StudioServices::attach()
{
    // An MCP server asking for input during an attended run gets a form.
    m_context->calls()->setElicitationHandler(
        [](const McpElicitation &request, std::function<void(const QJsonObject &)> reply) {
            ElicitationDialog::ask(QApplication::activeWindow(), request, std::move(reply));
        });
}

} // namespace Callscope
