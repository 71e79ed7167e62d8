// The precompiled header of the tests of widgets (cmake/pch.cmake).
#include "cmake/pch/gui.h"

#include <QSignalSpy>
#include <QtTest/qtestcase.h>
