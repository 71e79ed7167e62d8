// The precompiled header of the tests without widgets (cmake/pch.cmake): qtestcase.h, not
// qtest.h, whose includes follow the Qt modules a test links.
#include "cmake/pch/core.h"

#include <QSignalSpy>
#include <QtTest/qtestcase.h>
