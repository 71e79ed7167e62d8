// The usdt probe's client side, unprivileged: argument specs (core/usdtargs.h, which the helper
// parses again), .note.stapsdt sections (client/usdtnotes.h) and resolving BINARY:PROVIDER:NAME
// in usdttarget, checked against what binutils' readelf says of it; the helper's check of the
// semaphore offset (helper/uprobefile.h) against the same file.
#include "client/usdtnotes.h"
#include "core/usdtargs.h"
#include "helper/uprobefile.h"
#include "tests/testutil.h"

#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

#include <cstring>

using namespace bpflens;

namespace {

QString run(const QString &program, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QString();
    return QString::fromLocal8Bit(p.readAllStandardOutput());
}

struct ReadelfNote
{
    QString provider;
    QString name;
    quint64 location = 0;
    quint64 semaphore = 0;
    QString args;
};

// readelf -n's stapsdt descriptors: "Provider: p", "Name: n", "Location: 0x.., Base: 0x..,
// Semaphore: 0x..", "Arguments: ...".
QList<ReadelfNote> readelfNotes(const QString &readelf, const QString &file)
{
    QList<ReadelfNote> out;
    const QStringList lines = run(readelf, {QStringLiteral("-n"), file}).split(QLatin1Char('\n'));
    static const QRegularExpression location(
        QStringLiteral("Location: 0x([0-9a-f]+), Base: 0x[0-9a-f]+, Semaphore: 0x([0-9a-f]+)"));
    for (const QString &raw : lines) {
        const QString line = raw.trimmed();
        if (line.startsWith(QLatin1String("Provider: "))) {
            out.append(ReadelfNote{});
            out.last().provider = line.mid(10);
        } else if (out.isEmpty()) {
            continue;
        } else if (line.startsWith(QLatin1String("Name: "))) {
            out.last().name = line.mid(6);
        } else if (const auto m = location.match(line); m.hasMatch()) {
            out.last().location = m.captured(1).toULongLong(nullptr, 16);
            out.last().semaphore = m.captured(2).toULongLong(nullptr, 16);
        } else if (line.startsWith(QLatin1String("Arguments: "))) {
            out.last().args = line.mid(11);
        }
    }
    return out;
}

// readelf -SW's address and file offset of a section.
std::optional<std::pair<quint64, quint64>> section(const QString &readelf, const QString &file,
                                                   const QString &name)
{
    const QStringList lines = run(readelf, {QStringLiteral("-SW"), file}).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        const qsizetype bracket = line.indexOf(QLatin1Char(']'));
        if (bracket < 0)
            continue;
        const QStringList f = line.mid(bracket + 1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.size() >= 4 && f[0] == name)
            return std::pair{f[2].toULongLong(nullptr, 16), f[3].toULongLong(nullptr, 16)};
    }
    return std::nullopt;
}

// A note as sys/sdt.h writes one (64-bit), for hand-made sections.
QByteArray note(const QByteArray &owner, quint32 type, quint64 pc, quint64 semaphore,
                const QByteArray &strings)
{
    QByteArray desc;
    for (const quint64 v : {pc, quint64(0), semaphore})
        desc.append(reinterpret_cast<const char *>(&v), 8);
    desc += strings;
    QByteArray out;
    const quint32 header[3] = {quint32(owner.size() + 1), quint32(desc.size()), type};
    out.append(reinterpret_cast<const char *>(header), sizeof header);
    QByteArray name = owner + '\0';
    while (name.size() % 4)
        name += '\0';
    out += name;
    while (desc.size() % 4)
        desc += '\0';
    return out + desc;
}

} // namespace

class TestUsdtNotes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void argumentSpecs_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("reg");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<int>("size");
        QTest::addColumn<bool>("isSigned");
        using K = UsdtArg::Kind;
        QTest::newRow("register") << QStringLiteral("8@%rdi") << QStringLiteral("8@%rdi")
                                  << int(K::Register) << QStringLiteral("rdi") << 0ll << 8 << false;
        QTest::newRow("32-bit register")
            << QStringLiteral("-4@%eax") << QStringLiteral("-4@%rax") << int(K::Register)
            << QStringLiteral("rax") << 0ll << 4 << true;
        QTest::newRow("byte register")
            << QStringLiteral("1@%r12b") << QStringLiteral("1@%r12") << int(K::Register)
            << QStringLiteral("r12") << 0ll << 1 << false;
        QTest::newRow("memory") << QStringLiteral("-4@-1204(%rbp)")
                                << QStringLiteral("-4@-1204(%rbp)") << int(K::Memory)
                                << QStringLiteral("rbp") << -1204ll << 4 << true;
        QTest::newRow("memory, no offset")
            << QStringLiteral("2@(%rsi)") << QStringLiteral("2@0(%rsi)") << int(K::Memory)
            << QStringLiteral("rsi") << 0ll << 2 << false;
        QTest::newRow("constant") << QStringLiteral("-8@$-9") << QStringLiteral("-8@$-9")
                                  << int(K::Constant) << QStringLiteral("") << -9ll << 8 << true;
    }

    void argumentSpecs()
    {
        QFETCH(QString, text);
        QFETCH(QString, canonical);
        QList<UsdtArg> args;
        QString why;
        QVERIFY2(parseUsdtArgs(text, &args, &why), qPrintable(why));
        QCOMPARE(args.size(), 1);
        QFETCH(int, kind);
        QCOMPARE(int(args[0].kind), kind);
        QFETCH(QString, reg);
        QFETCH(qint64, value);
        QFETCH(int, size);
        QFETCH(bool, isSigned);
        QCOMPARE(args[0].reg, reg);
        QCOMPARE(args[0].value, value);
        QCOMPARE(int(args[0].size), size);
        QCOMPARE(args[0].isSigned, isSigned);
        QCOMPARE(formatUsdtArgs(args), canonical);
        QList<UsdtArg> back;
        QVERIFY(parseUsdtArgs(canonical, &back, &why));
        QCOMPARE(back, args);
    }

    void unsupportedSpecsSayWhy_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("index") << QStringLiteral("8@%rdi 8@(%rax,%rdx,8)")
                               << QStringLiteral(
                                      "arg 1: 8@(%rax,%rdx,8): index registers are not supported");
        QTest::newRow("rip") << QStringLiteral("8@8(%rip)")
                             << QStringLiteral("arg 0: 8@8(%rip): %rip-relative");
        QTest::newRow("size") << QStringLiteral("3@%rax")
                              << QStringLiteral("arg 0: 3@%rax: size 3 is not 1, 2, 4 or 8 bytes");
        QTest::newRow("no size") << QStringLiteral("%rax")
                                 << QStringLiteral("arg 0: %rax: not SIZE@OPERAND");
        QTest::newRow("xmm") << QStringLiteral("8@%xmm0")
                             << QStringLiteral("xmm0 is not an x86-64 general-purpose register");
        QTest::newRow("13 args") << QStringLiteral("8@%rax ").repeated(13)
                                 << QStringLiteral("13 arguments, more than USDT's 12");
    }

    void unsupportedSpecsSayWhy()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QList<UsdtArg> args;
        QString why;
        QVERIFY(!parseUsdtArgs(text, &args, &why));
        QVERIFY2(why.contains(expected), qPrintable(why));
        QVERIFY(args.isEmpty());
    }

    void malformedNoteSections()
    {
        QList<UsdtNote> notes;
        QString why;
        const QByteArray good =
            note("stapsdt", 3, 0x1234, 0x4020, QByteArray("prov\0name\0-4@%eax\0", 18));
        // Another owner's note is skipped; ours is read.
        const QByteArray other = note("GNU", 3, 1, 0, QByteArray("x\0y\0\0", 5));
        QVERIFY2(parseStapsdtNotes((other + good).constData(), size_t((other + good).size()), true,
                                   &notes, &why),
                 qPrintable(why));
        QCOMPARE(notes.size(), 1);
        QCOMPARE(notes[0].pc, 0x1234u);
        QCOMPARE(notes[0].semaphore, 0x4020u);
        QCOMPARE(notes[0].provider, QStringLiteral("prov"));
        QCOMPARE(notes[0].name, QStringLiteral("name"));
        QCOMPARE(notes[0].args, QStringLiteral("-4@%eax"));
        // Every cut of the section is refused or yields only whole notes, never a read past it.
        for (qsizetype cut = 1; cut < good.size(); ++cut) {
            QByteArray bytes = good.left(cut);
            why.clear();
            const bool ok =
                parseStapsdtNotes(bytes.constData(), size_t(bytes.size()), true, &notes, &why);
            QVERIFY2(!ok || notes.size() <= 1, qPrintable(QString::number(cut)));
            if (!ok)
                QVERIFY(!why.isEmpty());
        }
        // Strings that run off the note.
        const QByteArray open = note("stapsdt", 3, 1, 0, QByteArray("prov\0name", 9));
        QVERIFY(!parseStapsdtNotes(open.constData(), size_t(open.size()), true, &notes, &why));
        QVERIFY2(why.contains(QLatin1String("not terminated")), qPrintable(why));
        // A size that claims more than the section holds.
        QByteArray huge = good;
        const quint32 big = 0xfffffff0u;
        std::memcpy(huge.data() + 4, &big, 4);
        QVERIFY(!parseStapsdtNotes(huge.constData(), size_t(huge.size()), true, &notes, &why));
        QVERIFY2(why.contains(QLatin1String("cut")), qPrintable(why));
    }

    // Every probe of usdttarget resolves to what readelf says: address, file offset through the
    // executable segment, the semaphore's file offset (the .probes section, which holds only it)
    // and the argument specs.
    void resolvesAsReadelfSays()
    {
        const QString readelf = QStandardPaths::findExecutable(QStringLiteral("readelf"));
        if (readelf.isEmpty())
            QSKIP("binutils' readelf is not installed");
        const QString program = QStringLiteral(BPFLENS_USDTTARGET);
        const QList<ReadelfNote> expected = readelfNotes(readelf, program);
        QCOMPARE(expected.size(), 2);
        const auto text = section(readelf, program, QStringLiteral(".text"));
        const auto probes = section(readelf, program, QStringLiteral(".probes"));
        QVERIFY(text && probes);
        for (const ReadelfNote &n : expected) {
            UsdtTarget t;
            QString why;
            QVERIFY2(resolveUsdtTarget(program + QLatin1Char(':') + n.provider + QLatin1Char(':') +
                                           n.name,
                                       0, &t, &why),
                     qPrintable(why));
            QCOMPARE(t.provider, n.provider);
            QCOMPARE(t.name, n.name);
            QCOMPARE(t.address, n.location);
            // .text's address and offset differ by the segment's; the probe is in .text.
            QCOMPARE(t.offset, n.location - text->first + text->second);
            QCOMPARE(t.semaphoreOffset,
                     n.semaphore ? n.semaphore - probes->first + probes->second : 0u);
            QList<UsdtArg> args;
            QVERIFY(parseUsdtArgs(n.args, &args, &why));
            QCOMPARE(t.args, args);
            QVERIFY(t.file.isValid());
            QCOMPARE(t.display(), QFileInfo(program).canonicalFilePath() + QLatin1Char(':') +
                                      n.provider + QLatin1Char(':') + n.name);
            // The helper accepts the offsets the client resolved, and no semaphore in code.
            QVERIFY2(checkUprobeFile(t.file.get(), t.offset, &why), qPrintable(why));
            if (t.semaphoreOffset)
                QVERIFY2(checkUsdtSemaphore(t.file.get(), t.semaphoreOffset, &why),
                         qPrintable(why));
            QVERIFY(!checkUsdtSemaphore(t.file.get(), t.offset & ~quint64(1), &why));
            QVERIFY2(why.contains(QLatin1String("not in a writable segment")), qPrintable(why));
        }
        // Without the provider: the same probe.
        UsdtTarget t;
        QString why;
        QVERIFY2(resolveUsdtTarget(program + QStringLiteral(":tick"), 0, &t, &why),
                 qPrintable(why));
        QCOMPARE(t.provider, QStringLiteral("bpflens"));
    }

    // A probe at several places resolves to every site readelf lists, in its order, each with
    // its own specs (a constant at one, registers at the other), one file offset each.
    void resolvesEverySite()
    {
        const QString readelf = QStandardPaths::findExecutable(QStringLiteral("readelf"));
        if (readelf.isEmpty())
            QSKIP("binutils' readelf is not installed");
        const QString program = QStringLiteral(BPFLENS_USDTSITES);
        QList<ReadelfNote> expected;
        for (const ReadelfNote &n : readelfNotes(readelf, program)) {
            if (n.name == QLatin1String("site"))
                expected << n;
        }
        QCOMPARE(expected.size(), 2);
        QCOMPARE(expected[0].args, QStringLiteral("-4@$7 8@%rdi"));
        QCOMPARE(expected[1].args, QStringLiteral("-4@%edi 8@%rsi"));
        const auto text = section(readelf, program, QStringLiteral(".text"));
        QVERIFY(text);
        UsdtTarget t;
        QString why;
        QVERIFY2(resolveUsdtTarget(program + QStringLiteral(":bpflens:site"), 0, &t, &why),
                 qPrintable(why));
        QCOMPARE(t.sites.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(t.sites[i].offset, expected[i].location - text->first + text->second);
            QList<UsdtArg> args;
            QVERIFY(parseUsdtArgs(expected[i].args, &args, &why));
            QCOMPARE(t.sites[i].args, args);
            QVERIFY2(checkUprobeFile(t.file.get(), t.sites[i].offset, &why), qPrintable(why));
        }
        QCOMPARE(t.offset, t.sites[0].offset);
        QCOMPARE(t.address, expected[0].location);
        // What the helper gets back reads back to the same sites.
        QList<UsdtSite> back;
        QVERIFY2(parseUsdtSites(formatUsdtSites(t.sites), &back, &why), qPrintable(why));
        QCOMPARE(back, t.sites);
        QList<int> specOf;
        QCOMPARE(usdtSpecTable(t.sites, &specOf).size(), 2);
        QCOMPARE(specOf, (QList<int>{0, 1}));
    }

    void refusalsSayWhy_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("expected");
        const QString program = QStringLiteral(BPFLENS_USDTTARGET);
        QTest::newRow("no probe") << program + QStringLiteral(":bpflens:nope")
                                  << QStringLiteral("no USDT probe bpflens:nope in %1; it has "
                                                    "bpflens:guarded, bpflens:tick")
                                         .arg(program);
        QTest::newRow("no notes") << QStringLiteral(BPFLENS_UPROBETARGET ":p:n")
                                  << QStringLiteral("has no USDT probes");
        QTest::newRow("not elf") << QStringLiteral("/etc/hostname:p:n")
                                 << QStringLiteral("/etc/hostname is not an ELF file");
        QTest::newRow("no name") << program + QStringLiteral(":")
                                 << QStringLiteral("is not BINARY");
        QTest::newRow("bad name") << program + QStringLiteral(":p:a-b")
                                  << QStringLiteral("'a-b' is not a USDT probe name");
    }

    void refusalsSayWhy()
    {
        QFETCH(QString, spec);
        QFETCH(QString, expected);
        UsdtTarget t;
        QString why;
        QVERIFY(!resolveUsdtTarget(spec, 0, &t, &why));
        QVERIFY2(why.contains(expected), qPrintable(why));
        QVERIFY(!t.file.isValid());
    }
};

QTEST_GUILESS_MAIN(TestUsdtNotes)
#include "tst_usdtnotes.moc"
