#pragma once

// For the studio's tests: a spec document is checked on a worker thread, so a test that opens
// or edits a spec waits for the check of the text as it is before it reads the findings.

#include "ui/editor/specdocument.h"
#include "ui/window/mainwindow.h"

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

} // namespace Callscope::Test
