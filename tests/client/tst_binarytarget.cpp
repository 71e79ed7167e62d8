// The uprobe probe's two halves on real files, unprivileged: the client's resolveBinaryTarget
// (client/binarytarget.h) and findLibrary, checked against what binutils' nm and readelf say of
// the same files, and the helper's checkUprobeFile (helper/uprobefile.h) on good and bad
// descriptors.
#include "client/binarytarget.h"
#include "helper/uprobefile.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <optional>

using namespace bpflens;

namespace {

struct Segment
{
    quint64 offset = 0;
    quint64 vaddr = 0;
    quint64 filesz = 0;
    bool exec = false;
};

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

// nm's value of a defined symbol (the first listed).
std::optional<quint64> nmAddress(const QString &nm, const QString &file, const QString &symbol,
                                 bool dynamic = false)
{
    QStringList args{QStringLiteral("--defined-only")};
    if (dynamic)
        args << QStringLiteral("-D");
    args << file;
    const QStringList lines = run(nm, args).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        const QStringList f = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.size() == 3 && (f[2] == symbol || f[2].startsWith(symbol + QLatin1Char('@')))) {
            bool ok = false;
            const quint64 v = f[0].toULongLong(&ok, 16);
            if (ok)
                return v;
        }
    }
    return std::nullopt;
}

// readelf -lW's PT_LOAD lines: "LOAD 0x000000 0x0000000000000000 0x... 0x000628 0x000628 R E
// 0x1000"
QList<Segment> loadSegments(const QString &readelf, const QString &file)
{
    QList<Segment> out;
    const QStringList lines = run(readelf, {QStringLiteral("-lW"), file}).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        const QStringList f = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.size() < 8 || f[0] != QLatin1String("LOAD"))
            continue;
        Segment s;
        s.offset = f[1].toULongLong(nullptr, 16);
        s.vaddr = f[2].toULongLong(nullptr, 16);
        s.filesz = f[4].toULongLong(nullptr, 16);
        // The flags ("R E", "RW") sit between MemSiz and Align.
        for (qsizetype i = 6; i + 1 < f.size(); ++i)
            s.exec = s.exec || f[i].contains(QLatin1Char('E'));
        out << s;
    }
    return out;
}

std::optional<quint64> offsetOf(const QList<Segment> &segments, quint64 vaddr)
{
    for (const Segment &s : segments) {
        if (s.exec && vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz)
            return s.offset + (vaddr - s.vaddr);
    }
    return std::nullopt;
}

// readelf -SW's address of a section: "  [25] .data PROGBITS 0000000000004018 003018 000010 ..."
std::optional<quint64> sectionAddress(const QString &readelf, const QString &file,
                                      const QString &section)
{
    const QStringList lines = run(readelf, {QStringLiteral("-SW"), file}).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        const qsizetype bracket = line.indexOf(QLatin1Char(']'));
        if (bracket < 0)
            continue;
        const QStringList f = line.mid(bracket + 1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.size() >= 3 && f[0] == section)
            return f[2].toULongLong(nullptr, 16);
    }
    return std::nullopt;
}

// The libc a process maps, from its /proc/PID/maps.
QString mappedLibc(qint64 pid)
{
    QFile maps(QStringLiteral("/proc/%1/maps").arg(pid));
    if (!maps.open(QIODevice::ReadOnly))
        return QString();
    const QList<QByteArray> lines = maps.readAll().split('\n');
    for (const QByteArray &line : lines) {
        const qsizetype slash = line.indexOf('/');
        if (slash >= 0 && line.endsWith("/libc.so.6"))
            return QString::fromLocal8Bit(line.mid(slash));
    }
    return QString();
}

QByteArray fileBytes(const QString &path, quint64 offset, qint64 size)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(qint64(offset)))
        return QByteArray();
    return f.read(size);
}

struct LoadBase
{
    dev_t dev = 0;
    ino_t ino = 0;
    quintptr base = 0;
    bool found = false;
};

int findBase(struct dl_phdr_info *info, size_t, void *data)
{
    auto *b = static_cast<LoadBase *>(data);
    struct stat st;
    if (!info->dlpi_name || !*info->dlpi_name || ::stat(info->dlpi_name, &st) != 0 ||
        st.st_dev != b->dev || st.st_ino != b->ino)
        return 0;
    b->base = info->dlpi_addr;
    b->found = true;
    return 1;
}

} // namespace

class TestBinaryTarget : public QObject
{
    Q_OBJECT

private:
    QString m_target;
    QString m_nm;
    QString m_readelf;
    QList<Segment> m_segments;
    quint64 m_countAddress = 0;
    quint64 m_countOffset = 0;

private Q_SLOTS:
    void initTestCase()
    {
        m_target = QFileInfo(QStringLiteral(BPFLENS_UPROBETARGET)).canonicalFilePath();
        QVERIFY2(!m_target.isEmpty(), BPFLENS_UPROBETARGET " was not built");
        for (const char *name : {"nm", "llvm-nm"}) {
            if (m_nm.isEmpty())
                m_nm = QStandardPaths::findExecutable(QString::fromLatin1(name));
        }
        for (const char *name : {"readelf", "llvm-readelf"}) {
            if (m_readelf.isEmpty())
                m_readelf = QStandardPaths::findExecutable(QString::fromLatin1(name));
        }
        QVERIFY2(!m_nm.isEmpty() && !m_readelf.isEmpty(),
                 "nm and readelf (binutils or llvm) are needed for the expectations");
        const auto address = nmAddress(m_nm, m_target, QStringLiteral("bpflens_count"));
        QVERIFY(address);
        m_countAddress = *address;
        m_segments = loadSegments(m_readelf, m_target);
        QVERIFY(!m_segments.isEmpty());
        const auto offset = offsetOf(m_segments, m_countAddress);
        QVERIFY(offset);
        m_countOffset = *offset;
    }

    void functionAsNmAndReadelfSeeIt()
    {
        BinaryTarget t;
        QString error;
        QVERIFY2(resolveBinaryTarget(m_target + QStringLiteral(":bpflens_count"), 0, &t, &error),
                 qPrintable(error));
        QCOMPARE(t.path, m_target);
        QCOMPARE(t.symbol, QStringLiteral("bpflens_count"));
        QCOMPARE(t.implementation, QStringLiteral("bpflens_count"));
        QCOMPARE(t.address, m_countAddress);
        QCOMPARE(t.offset, m_countOffset);
        QVERIFY(t.file.isValid());
        QCOMPARE(t.display(), m_target + QStringLiteral(":bpflens_count"));
        // The descriptor is the file, opened for reading.
        struct stat a, b;
        QCOMPARE(::fstat(t.file.get(), &a), 0);
        QCOMPARE(::stat(QFile::encodeName(m_target).constData(), &b), 0);
        QCOMPARE(a.st_ino, b.st_ino);
        QCOMPARE(::fcntl(t.file.get(), F_GETFL) & O_ACCMODE, O_RDONLY);
        QVERIFY(::fcntl(t.file.get(), F_GETFD) & FD_CLOEXEC);

        BinaryTarget sleep;
        QVERIFY2(
            resolveBinaryTarget(m_target + QStringLiteral(":bpflens_sleep"), 0, &sleep, &error),
            qPrintable(error));
        QCOMPARE(sleep.address,
                 nmAddress(m_nm, m_target, QStringLiteral("bpflens_sleep")).value_or(0));
    }

    void addressOfTheFunction()
    {
        BinaryTarget t;
        QString error;
        const QString spec = m_target + QStringLiteral(":0x%1").arg(m_countAddress, 0, 16);
        QVERIFY2(resolveBinaryTarget(spec, 0, &t, &error), qPrintable(error));
        QCOMPARE(t.offset, m_countOffset);
        QCOMPARE(t.address, m_countAddress);
        QVERIFY(t.symbol.isEmpty());
        QCOMPARE(t.implementation, QStringLiteral("bpflens_count"));
        QCOMPARE(t.display(), spec);
        // Upper-case hex too.
        QVERIFY2(resolveBinaryTarget(
                     m_target + QStringLiteral(":0X%1").arg(m_countAddress, 0, 16).toUpper(), 0, &t,
                     &error),
                 qPrintable(error));
        QCOMPARE(t.offset, m_countOffset);
    }

    void dataAddressIsRefused()
    {
        auto data = sectionAddress(m_readelf, m_target, QStringLiteral(".data"));
        if (!data)
            data = sectionAddress(m_readelf, m_target, QStringLiteral(".got"));
        QVERIFY(data);
        BinaryTarget t;
        QString error;
        QVERIFY(!resolveBinaryTarget(m_target + QStringLiteral(":0x%1").arg(*data, 0, 16), 0, &t,
                                     &error));
        QVERIFY2(error.contains(QStringLiteral("is not in an executable segment")),
                 qPrintable(error));
        QVERIFY2(error.contains(m_target), qPrintable(error));
        QVERIFY(!t.file.isValid());
    }

    void programInPath()
    {
        const QByteArray saved = qgetenv("PATH");
        qputenv("PATH", QFile::encodeName(QFileInfo(m_target).absolutePath()));
        BinaryTarget t;
        QString error;
        const bool ok = resolveBinaryTarget(
            QFileInfo(m_target).fileName() + QStringLiteral(":bpflens_count"), 0, &t, &error);
        qputenv("PATH", saved);
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(t.path, m_target);
        QCOMPARE(t.offset, m_countOffset);
    }

    void libcStrlen()
    {
        BinaryTarget t;
        QString error;
        QVERIFY2(resolveBinaryTarget(QStringLiteral("c:strlen"), 0, &t, &error), qPrintable(error));
        qInfo("c:strlen -> %s, implementation %s at 0x%llx, offset 0x%llx", qPrintable(t.path),
              qPrintable(t.implementation), t.address, t.offset);
        QVERIFY2(t.path.endsWith(QStringLiteral("/libc.so.6")), qPrintable(t.path));
        QCOMPARE(t.symbol, QStringLiteral("strlen"));
        QVERIFY(!t.implementation.isEmpty());
        QVERIFY(t.file.isValid());

        // readelf's own view: is strlen an IFUNC in this libc?
        const QString dynsyms =
            run(m_readelf, {QStringLiteral("--dyn-syms"), QStringLiteral("-W"), t.path});
        const bool ifunc = dynsyms.contains(
            QRegularExpression(QStringLiteral("IFUNC +GLOBAL +DEFAULT +\\S+ strlen(@|$)"),
                               QRegularExpression::MultilineOption));
#if defined(__x86_64__)
        QVERIFY2(ifunc, "glibc's strlen on x86_64 is an IFUNC");
#endif
        if (ifunc) {
            QVERIFY(t.implementation != QStringLiteral("strlen"));
            QVERIFY(t.address != nmAddress(m_nm, t.path, QStringLiteral("strlen"), true));
        }
        // The offset is where the address's code is in the file: the bytes there are the bytes
        // this process runs at the library's load address.
        const QList<Segment> segments = loadSegments(m_readelf, t.path);
        QCOMPARE(offsetOf(segments, t.address), std::optional<quint64>(t.offset));
        struct stat st;
        QCOMPARE(::fstat(t.file.get(), &st), 0);
        LoadBase base;
        base.dev = st.st_dev;
        base.ino = st.st_ino;
        dl_iterate_phdr(findBase, &base);
        QVERIFY(base.found);
        const QByteArray inFile = fileBytes(t.path, t.offset, 32);
        QCOMPARE(inFile.size(), 32);
        QCOMPARE(QByteArray(reinterpret_cast<const char *>(base.base + t.address), 32), inFile);
        // With the detached debug symbols installed (libc6-dbg), the implementation has its
        // name, and nm puts it at the address in the debug file's .symtab.
        const QString notes = run(m_readelf, {QStringLiteral("-n"), t.path});
        const QRegularExpressionMatch id =
            QRegularExpression(QStringLiteral("Build ID: ([0-9a-f]{4,})")).match(notes);
        const QString debugFile = id.hasMatch()
                                      ? QStringLiteral("/usr/lib/debug/.build-id/%1/%2.debug")
                                            .arg(id.captured(1).left(2), id.captured(1).mid(2))
                                      : QString();
        if (ifunc && QFileInfo::exists(debugFile)) {
            QVERIFY2(t.implementation.startsWith(QStringLiteral("__strlen_")),
                     qPrintable(t.implementation));
            QCOMPARE(nmAddress(m_nm, debugFile, t.implementation),
                     std::optional<quint64>(t.address));
        }
        // And the implementation's own name resolves to the same place.
        if (!t.implementation.startsWith(QStringLiteral("0x"))) {
            BinaryTarget impl;
            QVERIFY2(resolveBinaryTarget(QStringLiteral("c:") + t.implementation, 0, &impl, &error),
                     qPrintable(error));
            QCOMPARE(impl.offset, t.offset);
            QCOMPARE(impl.implementation, t.implementation);
        }
    }

    void libraryNamesAgree()
    {
        BinaryTarget bySoname, byPath, byShort;
        QString error;
        QVERIFY2(resolveBinaryTarget(QStringLiteral("libc.so.6:getpid"), 0, &bySoname, &error),
                 qPrintable(error));
        QVERIFY2(resolveBinaryTarget(bySoname.path + QStringLiteral(":getpid"), 0, &byPath, &error),
                 qPrintable(error));
        QVERIFY2(resolveBinaryTarget(QStringLiteral("libc:getpid"), 0, &byShort, &error),
                 qPrintable(error));
        QCOMPARE(byPath.path, bySoname.path);
        QCOMPARE(byShort.path, bySoname.path);
        QCOMPARE(byPath.offset, bySoname.offset);
        QCOMPARE(byShort.offset, bySoname.offset);
        QCOMPARE(bySoname.implementation, QStringLiteral("getpid"));
        QCOMPARE(bySoname.address,
                 nmAddress(m_nm, bySoname.path, QStringLiteral("getpid"), true).value_or(0));
        QCOMPARE(findLibrary(QStringLiteral("c"), 0, &error), bySoname.path);
        QCOMPARE(findLibrary(QStringLiteral("libc.so.6"), 0, &error), bySoname.path);
        // Other libraries by their short names: the soname, not the development symlink.
        QVERIFY2(findLibrary(QStringLiteral("m"), 0, &error).endsWith(QStringLiteral("/libm.so.6")),
                 qPrintable(error));
        QVERIFY2(findLibrary(QStringLiteral("pthread"), 0, &error)
                     .endsWith(QStringLiteral("/libpthread.so.0")),
                 qPrintable(error));
        // What the dynamic linker loaded into this process is that file.
        QCOMPARE(QFileInfo(mappedLibc(QCoreApplication::applicationPid())).canonicalFilePath(),
                 bySoname.path);
    }

    void anonymousFile()
    {
        // A file with no name to canonicalise (what the fuzzer feeds in): shown as named.
        QFile original(m_target);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray elf = original.readAll();
        const int fd = memfd_create("uprobetarget", MFD_CLOEXEC);
        QVERIFY(fd >= 0);
        QCOMPARE(::write(fd, elf.constData(), size_t(elf.size())), ssize_t(elf.size()));
        const QString path = QStringLiteral("/proc/self/fd/%1").arg(fd);
        BinaryTarget t;
        QString error;
        const bool ok = resolveBinaryTarget(path + QStringLiteral(":bpflens_count"), 0, &t, &error);
        ::close(fd);
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(t.path, path);
        QCOMPARE(t.offset, m_countOffset);
        QVERIFY2(checkUprobeFile(t.file.get(), t.offset, &error), qPrintable(error));
    }

    void notAnElfFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString text = dir.filePath(QStringLiteral("notes.txt"));
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("just some text, long enough to be mistaken for a header by nobody\n");
        f.close();
        BinaryTarget t;
        QString error;
        QVERIFY(!resolveBinaryTarget(text + QStringLiteral(":main"), 0, &t, &error));
        QCOMPARE(error, text + QStringLiteral(" is not an ELF file"));
    }

    void missingFile()
    {
        BinaryTarget t;
        QString error;
        QVERIFY(!resolveBinaryTarget(QStringLiteral("/nonexistent/bpflens:main"), 0, &t, &error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot open /nonexistent/bpflens: ")),
                 qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("No such file")), qPrintable(error));
    }

    void unknownFunction()
    {
        BinaryTarget t;
        QString error;
        QVERIFY(!resolveBinaryTarget(m_target + QStringLiteral(":bpflens_nosuch"), 0, &t, &error));
        QVERIFY2(error.startsWith(QStringLiteral("no function bpflens_nosuch in ") + m_target +
                                  QStringLiteral(" (searched .symtab and .dynsym")),
                 qPrintable(error));
        // A data symbol is no function either.
        QVERIFY(!resolveBinaryTarget(m_target + QStringLiteral(":target_sink"), 0, &t, &error));
        QVERIFY2(error.startsWith(QStringLiteral("no function target_sink")), qPrintable(error));
    }

    void unknownLibrary()
    {
        BinaryTarget t;
        QString error;
        QVERIFY(!resolveBinaryTarget(QStringLiteral("bpflensnosuch:main"), 0, &t, &error));
        QVERIFY2(error.startsWith(QStringLiteral("no library libbpflensnosuch found (")),
                 qPrintable(error));
        QVERIFY2(error.endsWith(QStringLiteral("and no program bpflensnosuch in PATH")),
                 qPrintable(error));
        QVERIFY(findLibrary(QStringLiteral("bpflensnosuch"), 0, &error).isEmpty());
        QVERIFY2(error.startsWith(QStringLiteral("no library libbpflensnosuch found")),
                 qPrintable(error));
    }

    void badSpecs()
    {
        BinaryTarget t;
        QString error;
        for (const char *spec : {"", "nocolon", ":main", "/bin/true:", "c"}) {
            QVERIFY(!resolveBinaryTarget(QString::fromLatin1(spec), 0, &t, &error));
            QVERIFY2(error.contains(QStringLiteral("is not BINARY:FUNCTION")), qPrintable(error));
        }
    }

    void fifoDoesNotHang()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fifo = dir.filePath(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        BinaryTarget t;
        QString error;
        QVERIFY(!resolveBinaryTarget(fifo + QStringLiteral(":main"), 0, &t, &error));
        QCOMPARE(error, fifo + QStringLiteral(" is not a regular file"));
        QVERIFY(!resolveBinaryTarget(dir.path() + QStringLiteral(":main"), 0, &t, &error));
        QCOMPARE(error, dir.path() + QStringLiteral(" is a directory"));
    }

    void libraryOfAProcess()
    {
        QProcess sleep;
        sleep.start(QStringLiteral("sleep"), {QStringLiteral("5")});
        QVERIFY(sleep.waitForStarted());
        const qint64 pid = sleep.processId();
        // exec has happened; the dynamic linker maps libc a moment later.
        QString expected;
        QTRY_VERIFY_WITH_TIMEOUT(!(expected = mappedLibc(pid)).isEmpty(), 5000);
        QString error;
        QCOMPARE(findLibrary(QStringLiteral("c"), pid, &error), expected);
        QCOMPARE(findLibrary(QStringLiteral("libc.so.6"), pid, &error), expected);
        BinaryTarget t;
        QVERIFY2(resolveBinaryTarget(QStringLiteral("c:getpid"), pid, &t, &error),
                 qPrintable(error));
        QCOMPARE(t.path, expected);
        sleep.kill();
        sleep.waitForFinished();
        // Gone: said so, not resolved elsewhere.
        QVERIFY(findLibrary(QStringLiteral("c"), pid, &error).isEmpty());
        QVERIFY2(error.contains(QString::number(pid)), qPrintable(error));
    }

    void ifuncOfALibraryNotLoaded()
    {
        // The 32-bit libc of a multilib system: never loaded in this 64-bit process.
        const QString lib32 = QStringLiteral("/lib32/libc.so.6");
        if (!QFileInfo::exists(lib32))
            QSKIP("no /lib32/libc.so.6 (multilib) here");
        const QString dynsyms =
            run(m_readelf, {QStringLiteral("--dyn-syms"), QStringLiteral("-W"), lib32});
        if (!dynsyms.contains(QRegularExpression(QStringLiteral("IFUNC .* strlen(@|$)"),
                                                 QRegularExpression::MultilineOption)))
            QSKIP("strlen is no IFUNC in /lib32/libc.so.6");
        BinaryTarget t;
        QString error;
        QVERIFY(!resolveBinaryTarget(lib32 + QStringLiteral(":strlen"), 0, &t, &error));
        QVERIFY2(
            error.startsWith(QStringLiteral("strlen in ") + lib32 + QStringLiteral(" is an IFUNC")),
            qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("name the implementation instead")),
                 qPrintable(error));
        qInfo("%s", qPrintable(error));
    }

    void helperAcceptsTheResolvedOffset()
    {
        const int fd = ::open(QFile::encodeName(m_target).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        QString error;
        const bool ok = checkUprobeFile(fd, m_countOffset, &error);
        ::close(fd);
        QVERIFY2(ok, qPrintable(error));
        // And the descriptor resolveBinaryTarget hands over, at the offset it says.
        BinaryTarget t;
        QVERIFY(resolveBinaryTarget(QStringLiteral("c:strlen"), 0, &t, &error));
        QVERIFY2(checkUprobeFile(t.file.get(), t.offset, &error), qPrintable(error));
    }

    void helperRefusesOPath()
    {
        const int fd = ::open(QFile::encodeName(m_target).constData(), O_PATH | O_CLOEXEC);
        QVERIFY(fd >= 0);
        QString error;
        const bool ok = checkUprobeFile(fd, m_countOffset, &error);
        ::close(fd);
        QVERIFY(!ok);
        QVERIFY2(error.contains(QStringLiteral("O_PATH")), qPrintable(error));
    }

    void helperRefusesWriteOnly()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString copy = dir.filePath(QStringLiteral("copy"));
        QVERIFY(QFile::copy(m_target, copy));
        const int fd = ::open(QFile::encodeName(copy).constData(), O_WRONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        QString error;
        const bool ok = checkUprobeFile(fd, m_countOffset, &error);
        ::close(fd);
        QVERIFY(!ok);
        QVERIFY2(error.contains(QStringLiteral("not opened for reading")), qPrintable(error));
    }

    void helperRefusesDirectory()
    {
        const int fd = ::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        QString error;
        const bool ok = checkUprobeFile(fd, 0, &error);
        ::close(fd);
        QVERIFY(!ok);
        QCOMPARE(error, QStringLiteral("not a regular file"));
    }

    void helperRefusesDataOffsets()
    {
        // An offset in a non-executable PT_LOAD that no executable one covers (readelf's view).
        std::optional<quint64> dataOffset;
        for (const Segment &s : std::as_const(m_segments)) {
            if (s.exec || s.filesz == 0)
                continue;
            for (const quint64 candidate : {s.offset, s.offset + s.filesz - 1}) {
                bool inExec = false;
                for (const Segment &e : std::as_const(m_segments))
                    inExec = inExec ||
                             (e.exec && candidate >= e.offset && candidate - e.offset < e.filesz);
                if (!inExec && !dataOffset)
                    dataOffset = candidate;
            }
        }
        QVERIFY(dataOffset);
        const int fd = ::open(QFile::encodeName(m_target).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        QString error;
        QVERIFY(!checkUprobeFile(fd, *dataOffset, &error));
        QVERIFY2(error.contains(QStringLiteral("not in an executable segment")), qPrintable(error));
        QVERIFY(!checkUprobeFile(fd, quint64(QFileInfo(m_target).size()) + 4096, &error));
        QVERIFY2(error.contains(QStringLiteral("past the end of the file")), qPrintable(error));
        QVERIFY(!checkUprobeFile(fd, ~quint64(0), &error));
        ::close(fd);
    }

    void helperRefusesBrokenFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile original(m_target);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray elf = original.readAll();
        struct Case
        {
            const char *name;
            QByteArray bytes;
            const char *why;
        };
        const QList<Case> cases{
            {"truncated", elf.left(40), "too short for an ELF header"},
            {"text", QByteArray("#!/bin/sh\necho this is a script, not ELF\n"), "not an ELF file"},
            {"empty", QByteArray(), "not an ELF file"},
            {"headeronly", elf.left(64), "program headers lie past the end"},
        };
        for (const Case &c : cases) {
            const QString path = dir.filePath(QString::fromLatin1(c.name));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(c.bytes);
            f.close();
            const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
            QVERIFY(fd >= 0);
            QString error;
            const bool ok = checkUprobeFile(fd, m_countOffset, &error);
            ::close(fd);
            QVERIFY2(!ok, c.name);
            QVERIFY2(error.contains(QString::fromLatin1(c.why)),
                     qPrintable(QString::fromLatin1(c.name) + QStringLiteral(": ") + error));
        }
        // The client says the same of the truncated copy.
        BinaryTarget t;
        QString error;
        QVERIFY(!resolveBinaryTarget(dir.filePath(QStringLiteral("truncated")) +
                                         QStringLiteral(":bpflens_count"),
                                     0, &t, &error));
        QVERIFY2(error.contains(QStringLiteral("is not an ELF file")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestBinaryTarget)
#include "tst_binarytarget.moc"
