// The precompiled header of Qt Core targets: the libraries, the helper and the CLI
// (cmake/pch.cmake). Qt's and the standard library's headers, and ours that half the files
// include: the event types' declarations (core/events/) are the costliest to compile, 2.4 s of a
// test's 4.4 s of parsing. A change to one of ours rebuilds every file, as it did before.
#include <QByteArray>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QLocale>
#include <QMap>
#include <QObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QVariant>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/eventstore.h"
#include "core/records.h"
#include "core/sessionstore.h"
