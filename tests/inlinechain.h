#pragma once

// tests/programs/inlinechain.c, whose hot loop is an always_inline function: where its marker
// comments are, so the inline-frame tests check the lines DWARF gives against the source.
// Needs BPFLENS_SOURCE_DIR.
#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QString>

namespace bpflens::test {

inline QString inlineChainSource()
{
    return QStringLiteral(BPFLENS_SOURCE_DIR "/tests/programs/inlinechain.c");
}

// The 1-based line holding marker ("LINE_SPIN", "LINE_CALL", "LINE_DUMP"); 0 when none does.
inline quint32 inlineChainLine(const char *marker)
{
    QFile f(inlineChainSource());
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    quint32 n = 0;
    while (!f.atEnd()) {
        ++n;
        if (f.readLine().contains(QByteArray("/* ") + marker + " */"))
            return n;
    }
    return 0;
}

// Whether a frame's file (as DWARF names it) is inlinechain.c.
inline bool isInlineChainSource(const QByteArray &file)
{
    return !file.isEmpty() && QFileInfo(QFile::decodeName(file)).canonicalFilePath() ==
                                  QFileInfo(inlineChainSource()).canonicalFilePath();
}

} // namespace bpflens::test
