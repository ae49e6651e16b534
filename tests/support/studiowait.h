#pragma once

// For the studio's tests: a spec document is checked on a worker thread, so a test that opens
// or edits a spec waits for the check of the text as it is before it reads the findings.

#include "ui/editor/specdocument.h"
#include "ui/history/calltab.h"
#include "ui/sessions/sessionview.h"
#include "ui/window/mainwindow.h"

#include <QSignalSpy>
#include <QTest>

namespace Callscope::Test {

inline bool specChecked(const SpecDocument *document)
{
    return document && QTest::qWaitFor([document] { return document->isCheckCurrent(); }, 15000);
}

// The spec in front of the window.
inline bool specChecked(const MainWindow &window)
{
    return QTest::qWaitFor(
        [&window] {
            const SpecDocument *document = window.currentDocument();
            return document && document->isCheckCurrent();
        },
        15000);
}

// A call tab is read off the GUI thread: the tab, once its call is in (null when it is not).
inline CallTab *callTabFilled(CallTab *tab)
{
    return tab && QTest::qWaitFor([tab] { return tab->isLoaded(); }, 15000) ? tab : nullptr;
}

// A session is written through the store writer: its id once it is stored (0 when not).
inline qint64 sessionStored(SessionView *view, const QString &title)
{
    QSignalSpy created(view, &SessionView::sessionCreated);
    view->newSession(title);
    if (created.isEmpty() && !created.wait(15000))
        return 0;
    return created.at(0).at(0).toLongLong();
}

} // namespace Callscope::Test
