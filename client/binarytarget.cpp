#include "client/binarytarget.h"

#include "client/usdtnotes.h"
#include "core/counttext.h"
#include "core/elfheader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QStringList>

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

namespace bpflens {

namespace {

// /proc/PID/maps of a process with a million mappings is ~100 MiB; far more than anything real.
constexpr qint64 maxMapsSize = 256 * 1024 * 1024;

QString hex(quint64 v)
{
    return QStringLiteral("0x%1").arg(v, 0, 16);
}

class FileDescriptor
{
public:
    FileDescriptor() = default;
    explicit FileDescriptor(int fd)
        : m_fd(fd)
    {
    }
    ~FileDescriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    FileDescriptor(const FileDescriptor &) = delete;
    FileDescriptor &operator=(const FileDescriptor &) = delete;
    FileDescriptor(FileDescriptor &&other) noexcept
        : m_fd(other.release())
    {
    }
    FileDescriptor &operator=(FileDescriptor &&other) noexcept
    {
        if (this != &other) {
            if (m_fd >= 0)
                ::close(m_fd);
            m_fd = other.release();
        }
        return *this;
    }
    int get() const { return m_fd; }
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd = -1;
};

// An ELF file open through libelf; elf_end before the descriptor closes.
struct ElfFile
{
    ElfFile() = default;
    ~ElfFile()
    {
        if (elf)
            elf_end(elf);
    }
    ElfFile(const ElfFile &) = delete;
    ElfFile &operator=(const ElfFile &) = delete;

    FileDescriptor fd;
    Elf *elf = nullptr;
    quint64 size = 0;
};

bool libelfReady()
{
    static const bool ready = elf_version(EV_CURRENT) != EV_NONE;
    return ready;
}

// The ELF header of fd, read before libelf sees the file as the helper reads it
// (core/elfheader.h); *why names `name` when false.
bool readHeader(int fd, const QString &name, ElfHeader *h, QString *why)
{
    switch (readElfHeader(fd, h)) {
    case ElfHeaderResult::Ok:
        return true;
    case ElfHeaderResult::ReadFailed:
        *why = QStringLiteral("cannot read %1: %2").arg(name, qt_error_string(errno));
        break;
    case ElfHeaderResult::NotElf:
        *why = QStringLiteral("%1 is not an ELF file").arg(name);
        break;
    case ElfHeaderResult::UnknownClass:
        *why =
            QStringLiteral("%1 is not an ELF file (unknown class %2)").arg(name).arg(h->elfClass);
        break;
    case ElfHeaderResult::UnknownVersion:
        *why =
            QStringLiteral("%1 is not an ELF file (unknown version %2)").arg(name).arg(h->version);
        break;
    case ElfHeaderResult::Truncated:
        *why = QStringLiteral("%1 is not an ELF file (its header is cut short)").arg(name);
        break;
    }
    return false;
}

// Opens a regular file for reading. O_NONBLOCK so that a FIFO named by a caller cannot hang us
// in open(); it is cleared again since the descriptor goes on to the helper.
bool openRegular(const QString &path, const QString &name, FileDescriptor *out, QString *why)
{
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        *why = QStringLiteral("cannot open %1: %2").arg(name, qt_error_string(errno));
        return false;
    }
    FileDescriptor owner(fd);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        *why = QStringLiteral("cannot open %1: %2").arg(name, qt_error_string(errno));
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        *why = S_ISDIR(st.st_mode) ? QStringLiteral("%1 is a directory").arg(name)
                                   : QStringLiteral("%1 is not a regular file").arg(name);
        return false;
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    *out = std::move(owner);
    return true;
}

struct Machine
{
    unsigned char elfClass = 0;
    quint16 machine = 0;
};

// This process's own ELF class and machine: what a library must have for the dynamic linker to
// load it here (ld.so.cache also lists the x32 and i386 copies on a multilib x86_64 system).
const std::optional<Machine> &thisMachine()
{
    static const std::optional<Machine> machine = []() -> std::optional<Machine> {
        FileDescriptor fd;
        QString why;
        ElfHeader h;
        if (!openRegular(QStringLiteral("/proc/self/exe"), QString(), &fd, &why) ||
            !readHeader(fd.get(), QString(), &h, &why) || !h.isNativeByteOrder())
            return std::nullopt;
        return Machine{h.elfClass, h.machine};
    }();
    return machine;
}

bool isForThisMachine(const QString &path)
{
    FileDescriptor fd;
    QString why;
    ElfHeader h;
    if (!openRegular(path, path, &fd, &why) || !readHeader(fd.get(), path, &h, &why))
        return false;
    if (!h.isNativeByteOrder() || (h.type != ET_DYN && h.type != ET_EXEC))
        return false;
    const auto &self = thisMachine();
    if (!self)
        return h.elfClass == (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32);
    return h.elfClass == self->elfClass && h.machine == self->machine;
}

// How well a file name (or soname) matches a library or program name as asked, higher is
// better; -1 for no match. "c" and "libc" find libc.so.6 before the development symlink
// libc.so (a linker script); a name with ".so" in it is a file name or soname, matched exactly.
int nameRank(const QString &fileName, const QString &name)
{
    if (fileName == name)
        return 4;
    if (name.contains(QLatin1String(".so")))
        return -1;
    const QString base = name.startsWith(QLatin1String("lib")) ? name : QLatin1String("lib") + name;
    const QString so = base + QLatin1String(".so");
    if (fileName == so)
        return 0;
    if (fileName.startsWith(so + QLatin1Char('.'))) {
        const QStringView version = QStringView(fileName).mid(so.size() + 1);
        bool digits = !version.isEmpty();
        for (const QChar c : version)
            digits = digits && c.isDigit();
        return digits ? 3 : 2;
    }
    // glibc before 2.34 maps libc-2.31.so, which ld.so.cache lists as libc.so.6.
    if (fileName.startsWith(base + QLatin1Char('-')) && fileName.endsWith(QLatin1String(".so")))
        return 1;
    return -1;
}

QString libraryDisplayName(const QString &name)
{
    if (name.contains(QLatin1String(".so")) || name.startsWith(QLatin1String("lib")))
        return name;
    return QLatin1String("lib") + name;
}

const char *multiarchTuple()
{
#if defined(__x86_64__) && defined(__ILP32__)
    return "x86_64-linux-gnux32";
#elif defined(__x86_64__)
    return "x86_64-linux-gnu";
#elif defined(__i386__)
    return "i386-linux-gnu";
#elif defined(__aarch64__)
    return "aarch64-linux-gnu";
#elif defined(__arm__) && defined(__ARM_PCS_VFP)
    return "arm-linux-gnueabihf";
#elif defined(__arm__)
    return "arm-linux-gnueabi";
#elif defined(__riscv) && __riscv_xlen == 64
    return "riscv64-linux-gnu";
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return "powerpc64le-linux-gnu";
#elif defined(__s390x__)
    return "s390x-linux-gnu";
#else
    return nullptr;
#endif
}

QStringList libraryDirs()
{
    QStringList dirs;
    if (const char *tuple = multiarchTuple()) {
        dirs << QLatin1String("/lib/") + QLatin1String(tuple)
             << QLatin1String("/usr/lib/") + QLatin1String(tuple);
    }
    dirs << QStringLiteral("/lib64") << QStringLiteral("/usr/lib64") << QStringLiteral("/lib")
         << QStringLiteral("/usr/lib");
    return dirs;
}

struct CacheEntry
{
    QString soname;
    QString path;
};

// ld.so.cache as `ldconfig -p` lists it; false when no ldconfig could run. Users' PATH often
// lacks /sbin, so ldconfig is named by its full path.
bool ldconfigEntries(QList<CacheEntry> *out)
{
    for (const char *program : {"/sbin/ldconfig", "/usr/sbin/ldconfig"}) {
        const QString exe = QString::fromLatin1(program);
        if (!QFileInfo(exe).isExecutable())
            continue;
        QProcess proc;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
        proc.setProcessEnvironment(env);
        proc.setStandardInputFile(QProcess::nullDevice());
        proc.setStandardErrorFile(QProcess::nullDevice());
        proc.start(exe, {QStringLiteral("-p")});
        if (!proc.waitForStarted(5000))
            continue;
        if (!proc.waitForFinished(15000)) {
            proc.kill();
            proc.waitForFinished(1000);
            continue;
        }
        if (proc.exitStatus() != QProcess::NormalExit || proc.exitCode() != 0)
            continue;
        // "\tlibc.so.6 (libc6,x86-64, OS ABI: Linux 3.2.0) => /lib/x86_64-linux-gnu/libc.so.6"
        const QList<QByteArray> lines = proc.readAllStandardOutput().split('\n');
        for (const QByteArray &line : lines) {
            const qsizetype arrow = line.indexOf(" => ");
            if (arrow < 0)
                continue;
            QByteArray left = line.left(arrow).trimmed();
            const qsizetype paren = left.indexOf(" (");
            if (paren >= 0)
                left.truncate(paren);
            const QByteArray path = line.mid(arrow + 4).trimmed();
            if (left.isEmpty() || !path.startsWith('/'))
                continue;
            out->push_back({QFile::decodeName(left), QFile::decodeName(path)});
        }
        return true;
    }
    return false;
}

QString canonical(const QString &path)
{
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : c;
}

QString findHostLibrary(const QString &name, QString *error)
{
    QString best;
    int bestRank = -1;
    QList<CacheEntry> entries;
    const bool haveCache = ldconfigEntries(&entries);
    for (const CacheEntry &e : std::as_const(entries)) {
        const int rank = nameRank(e.soname, name);
        if (rank > bestRank && isForThisMachine(e.path)) {
            best = e.path;
            bestRank = rank;
        }
    }
    // A library installed without running ldconfig is in no cache, but still on the disk.
    const QStringList dirs = libraryDirs();
    if (bestRank < 0) {
        for (const QString &dir : dirs) {
            const QStringList files = QDir(dir).entryList(QDir::Files | QDir::System, QDir::Name);
            for (const QString &file : files) {
                const int rank = nameRank(file, name);
                const QString path = dir + QLatin1Char('/') + file;
                if (rank > bestRank && isForThisMachine(path)) {
                    best = path;
                    bestRank = rank;
                }
            }
        }
    }
    if (bestRank < 0) {
        if (error) {
            *error = haveCache ? QStringLiteral("no library %1 found (searched ldconfig -p and %2)")
                                     .arg(libraryDisplayName(name), dirs.join(QLatin1String(", ")))
                               : QStringLiteral("no library %1 found (no ldconfig; searched %2)")
                                     .arg(libraryDisplayName(name), dirs.join(QLatin1String(", ")));
        }
        return QString();
    }
    return canonical(best);
}

struct Mapped
{
    QString path; // as the process sees it
    quint64 inode = 0;
};

// Reads a /proc file (which reports size 0) with its own errno for the caller's message.
bool readProcFile(const QString &path, QByteArray *out, int *err)
{
    const QByteArray native = QFile::encodeName(path);
    FileDescriptor fd(::open(native.constData(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) {
        *err = errno;
        return false;
    }
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            *err = errno;
            return false;
        }
        if (n == 0)
            return true;
        if (out->size() + n > maxMapsSize) {
            *err = EFBIG;
            return false;
        }
        out->append(buf, n);
    }
}

// The file process pid has mapped that best matches name; nullopt with *error when its maps
// cannot be read, an empty path when none matches.
std::optional<Mapped> findMapped(const QString &name, qint64 pid, QString *error)
{
    const QString mapsPath = QStringLiteral("/proc/%1/maps").arg(pid);
    QByteArray maps;
    int err = 0;
    if (!readProcFile(mapsPath, &maps, &err)) {
        *error = err == ENOENT
                     ? QStringLiteral("no process %1").arg(pid)
                     : QStringLiteral("cannot read %1: %2").arg(mapsPath, qt_error_string(err));
        return std::nullopt;
    }
    Mapped best;
    int bestRank = -1;
    QSet<QByteArray> seen;
    qsizetype pos = 0;
    while (pos < maps.size()) {
        qsizetype end = maps.indexOf('\n', pos);
        if (end < 0)
            end = maps.size();
        // "7f2c4a028000-7f2c4a1bd000 r-xp 00028000 fd:01 1835023    /usr/lib/.../libc.so.6"
        const QByteArrayView line(maps.constData() + pos, end - pos);
        pos = end + 1;
        qsizetype at = 0;
        QByteArrayView fields[5];
        bool complete = true;
        for (QByteArrayView &field : fields) {
            while (at < line.size() && line[at] == ' ')
                ++at;
            const qsizetype start = at;
            while (at < line.size() && line[at] != ' ')
                ++at;
            field = line.sliced(start, at - start);
            complete = complete && !field.isEmpty();
        }
        if (!complete)
            continue;
        while (at < line.size() && line[at] == ' ')
            ++at;
        const QByteArrayView path = line.sliced(at);
        // A deleted file cannot be opened by its name any more; what has the name now is
        // another file, with other offsets.
        if (!path.startsWith('/') || path.endsWith(" (deleted)"))
            continue;
        const QByteArray pathBytes = path.toByteArray();
        if (seen.contains(pathBytes))
            continue;
        seen.insert(pathBytes);
        const QString decoded = QFile::decodeName(pathBytes);
        const int rank = nameRank(QFileInfo(decoded).fileName(), name);
        if (rank > bestRank) {
            bool ok = false;
            const quint64 inode = fields[4].toULongLong(&ok, 10);
            if (!ok)
                continue;
            best = Mapped{decoded, inode};
            bestRank = rank;
        }
    }
    return best;
}

// Where a BINARY of a spec is opened, and how it is shown.
struct Location
{
    QString openPath;
    QString shownPath;            // empty: the canonical openPath
    std::optional<quint64> inode; // what /proc/PID/maps says the mapped file is
    qint64 pid = 0;
};

bool locate(const QString &binary, qint64 pid, Location *loc, QString *error)
{
    if (binary.contains(QLatin1Char('/'))) {
        loc->openPath = binary;
        return true;
    }
    if (pid > 0) {
        const std::optional<Mapped> mapped = findMapped(binary, pid, error);
        if (!mapped)
            return false;
        if (!mapped->path.isEmpty()) {
            loc->openPath = QStringLiteral("/proc/%1/root%2").arg(pid).arg(mapped->path);
            loc->shownPath = mapped->path;
            loc->inode = mapped->inode;
            loc->pid = pid;
            return true;
        }
    }
    QString libraryError;
    const QString library = findHostLibrary(binary, &libraryError);
    if (!library.isEmpty()) {
        loc->openPath = library;
        return true;
    }
    const QString program = QStandardPaths::findExecutable(binary);
    if (!program.isEmpty()) {
        loc->openPath = program;
        return true;
    }
    *error = QStringLiteral("%1 and no program %2 in PATH").arg(libraryError, binary);
    return false;
}

// Symbol tables ------------------------------------------------------------------------------

// Calls f(sym, name, hiddenVersion) for every symbol of every section of type shType.
template<typename F>
void forEachSymbol(Elf *elf, Elf64_Word shType, F &&f)
{
    size_t sectionCount = 0;
    if (elf_getshdrnum(elf, &sectionCount) != 0)
        return;
    const size_t symSize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
    if (symSize == 0)
        return;
    // The version table of .dynsym tells the default version of a name ("name@@V") from the
    // old ones ("name@V") the file keeps for binaries linked long ago.
    Elf_Data *versyms = nullptr;
    size_t versymsFor = 0;
    if (shType == SHT_DYNSYM) {
        Elf_Scn *scn = nullptr;
        for (size_t i = 0; i < sectionCount && (scn = elf_nextscn(elf, scn)) != nullptr; ++i) {
            GElf_Shdr shdr;
            if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_GNU_versym) {
                versyms = elf_getdata(scn, nullptr);
                versymsFor = shdr.sh_link;
                break;
            }
        }
    }
    Elf_Scn *scn = nullptr;
    for (size_t s = 0; s < sectionCount && (scn = elf_nextscn(elf, scn)) != nullptr; ++s) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != shType)
            continue;
        Elf_Data *data = elf_getdata(scn, nullptr);
        if (!data || !data->d_buf)
            continue;
        Elf_Data *versions =
            versyms && versyms->d_buf && versymsFor == elf_ndxscn(scn) ? versyms : nullptr;
        const size_t count = std::min<size_t>(data->d_size / symSize, INT_MAX);
        for (size_t i = 1; i < count; ++i) {
            GElf_Sym sym;
            if (!gelf_getsym(data, int(i), &sym))
                break;
            const char *name = elf_strptr(elf, shdr.sh_link, sym.st_name);
            if (!name || !*name)
                continue;
            GElf_Versym version = 0;
            const bool hidden =
                versions && gelf_getversym(versions, int(i), &version) && (version & 0x8000);
            f(sym, name, hidden);
        }
    }
}

bool isFunction(const GElf_Sym &sym)
{
    const int type = GELF_ST_TYPE(sym.st_info);
    return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym.st_shndx != SHN_UNDEF;
}

int bindingRank(const GElf_Sym &sym)
{
    switch (GELF_ST_BIND(sym.st_info)) {
    case STB_GLOBAL:
        return 2;
    case STB_WEAK:
        return 1;
    default:
        return 0;
    }
}

// 2: name, or its default version "name@@V"; 1: an old version "name@V"; 0: another name.
int nameMatch(const char *symName, const QByteArray &want)
{
    const size_t length = std::strlen(symName);
    const size_t n = size_t(want.size());
    if (length < n || std::memcmp(symName, want.constData(), n) != 0)
        return 0;
    const char *rest = symName + n;
    if (*rest == '\0' || (rest[0] == '@' && rest[1] == '@'))
        return 2;
    return rest[0] == '@' ? 1 : 0;
}

QString withoutVersion(const char *name)
{
    const char *at = std::strchr(name, '@');
    return QString::fromUtf8(name, at ? at - name : qsizetype(std::strlen(name)));
}

struct Function
{
    bool found = false;
    quint64 value = 0;
    bool ifunc = false;
    int score = -1;
};

Function findFunction(Elf *elf, Elf64_Word shType, const QByteArray &want)
{
    Function best;
    forEachSymbol(elf, shType, [&](const GElf_Sym &sym, const char *name, bool hidden) {
        if (!isFunction(sym))
            return;
        const int match = nameMatch(name, want);
        if (match == 0)
            return;
        const int score = ((match == 2 && !hidden) ? 4 : 0) + bindingRank(sym);
        if (score > best.score) {
            best.found = true;
            best.value = sym.st_value;
            best.ifunc = GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC;
            best.score = score;
        }
    });
    return best;
}

// The function symbol whose code contains vaddr, the one starting there first.
QString coveringFunction(Elf *elf, quint64 vaddr)
{
    for (const Elf64_Word type : {Elf64_Word(SHT_SYMTAB), Elf64_Word(SHT_DYNSYM)}) {
        QString best;
        int bestScore = -1;
        forEachSymbol(elf, type, [&](const GElf_Sym &sym, const char *name, bool) {
            if (!isFunction(sym) || vaddr < sym.st_value)
                return;
            const quint64 delta = vaddr - sym.st_value;
            if (delta >= sym.st_size && !(sym.st_size == 0 && delta == 0))
                return;
            const int score = (delta == 0 ? 4 : 0) + bindingRank(sym);
            if (score > bestScore) {
                best = withoutVersion(name);
                bestScore = score;
            }
        });
        if (bestScore >= 0)
            return best;
    }
    return QString();
}

QStringList implementationsOf(Elf *elf, const QByteArray &ifunc)
{
    // glibc names its implementations __strlen_avx2, __memcpy_evex_unaligned_erms, ...
    const QByteArray prefix = "__" + ifunc + '_';
    QStringList names;
    for (const Elf64_Word type : {Elf64_Word(SHT_SYMTAB), Elf64_Word(SHT_DYNSYM)}) {
        forEachSymbol(elf, type, [&](const GElf_Sym &sym, const char *name, bool) {
            if (names.size() < 3 && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
                sym.st_shndx != SHN_UNDEF &&
                std::strncmp(name, prefix.constData(), size_t(prefix.size())) == 0) {
                const QString n = withoutVersion(name);
                if (!names.contains(n))
                    names << n;
            }
        });
    }
    return names;
}

QByteArray gnuBuildId(Elf *elf)
{
    size_t sectionCount = 0;
    if (elf_getshdrnum(elf, &sectionCount) != 0)
        return {};
    Elf_Scn *scn = nullptr;
    for (size_t s = 0; s < sectionCount && (scn = elf_nextscn(elf, scn)) != nullptr; ++s) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
            continue;
        Elf_Data *data = elf_getdata(scn, nullptr);
        if (!data || !data->d_buf)
            continue;
        size_t offset = 0;
        // gelf_getnote checks that name and descriptor lie inside data; the offsets grow.
        for (int n = 0; n < 256; ++n) {
            GElf_Nhdr nhdr;
            size_t nameOffset = 0;
            size_t descOffset = 0;
            const size_t next = gelf_getnote(data, offset, &nhdr, &nameOffset, &descOffset);
            if (next == 0 || next <= offset)
                break;
            const char *bytes = static_cast<const char *>(data->d_buf);
            if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
                std::memcmp(bytes + nameOffset, "GNU", 4) == 0 && nhdr.n_descsz >= 2 &&
                nhdr.n_descsz <= 64)
                return QByteArray(bytes + descOffset, qsizetype(nhdr.n_descsz));
            offset = next;
        }
    }
    return {};
}

bool openElf(const QString &path, const QString &name, ElfFile *file, ElfHeader *header,
             QString *why)
{
    if (!openRegular(path, name, &file->fd, why) || !readHeader(file->fd.get(), name, header, why))
        return false;
    struct stat st;
    if (::fstat(file->fd.get(), &st) != 0) {
        *why = QStringLiteral("cannot open %1: %2").arg(name, qt_error_string(errno));
        return false;
    }
    file->size = st.st_size > 0 ? quint64(st.st_size) : 0;
    if (!header->isNativeByteOrder()) {
        *why = QStringLiteral("%1 is an ELF file of the other byte order than this machine's")
                   .arg(name);
        return false;
    }
    if (!libelfReady()) {
        *why = QStringLiteral("libelf cannot be initialised");
        return false;
    }
    // Mapped, not read: libelf then checks every offset against the file's real size.
    file->elf = elf_begin(file->fd.get(), ELF_C_READ_MMAP, nullptr);
    if (!file->elf || elf_kind(file->elf) != ELF_K_ELF) {
        *why = QStringLiteral("%1 is not an ELF file (%2)")
                   .arg(name, QString::fromUtf8(elf_errmsg(-1)));
        return false;
    }
    return true;
}

// The separate debug file (Debian's -dbg and -dbgsym packages) of a stripped file: its
// .symtab names the local functions, IFUNC implementations among them.
class DebugSymbols
{
public:
    explicit DebugSymbols(Elf *elf)
        : m_elf(elf)
    {
    }
    Elf *get()
    {
        if (m_tried)
            return m_file.elf;
        m_tried = true;
        const QByteArray id = gnuBuildId(m_elf);
        if (id.size() < 2)
            return nullptr;
        const QByteArray hexId = id.toHex();
        const QString path =
            QStringLiteral("/usr/lib/debug/.build-id/%1/%2.debug")
                .arg(QString::fromLatin1(hexId.left(2)), QString::fromLatin1(hexId.mid(2)));
        ElfHeader header;
        QString why;
        if (!QFileInfo::exists(path) || !openElf(path, path, &m_file, &header, &why) ||
            gnuBuildId(m_file.elf) != id) {
            if (m_file.elf) {
                elf_end(m_file.elf);
                m_file.elf = nullptr;
            }
            return nullptr;
        }
        m_path = path;
        return m_file.elf;
    }
    QString path() const { return m_path; }

private:
    Elf *m_elf;
    ElfFile m_file;
    QString m_path;
    bool m_tried = false;
};

// The file offset of vaddr, through the executable PT_LOAD containing it in the file.
bool fileOffset(Elf *elf, quint64 fileSize, quint64 vaddr, quint64 *offset)
{
    size_t count = 0;
    if (elf_getphdrnum(elf, &count) != 0)
        return false;
    if (count > MaxElfProgramHeaders)
        count = MaxElfProgramHeaders;
    for (size_t i = 0; i < count; ++i) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, int(i), &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
            continue;
        if (vaddr < ph.p_vaddr || vaddr - ph.p_vaddr >= ph.p_filesz)
            continue;
        const quint64 at = ph.p_offset + (vaddr - ph.p_vaddr);
        if (at < ph.p_offset || at >= fileSize)
            continue;
        *offset = at;
        return true;
    }
    return false;
}

struct LoadedSearch
{
    dev_t dev = 0;
    ino_t ino = 0;
    bool found = false;
    bool isMain = false;
    QByteArray name;
};

int findLoaded(struct dl_phdr_info *info, size_t, void *data)
{
    auto *search = static_cast<LoadedSearch *>(data);
    const bool isMain = !info->dlpi_name || !*info->dlpi_name;
    const char *path = isMain ? "/proc/self/exe" : info->dlpi_name;
    struct stat st;
    if (::stat(path, &st) != 0 || st.st_dev != search->dev || st.st_ino != search->ino)
        return 0;
    search->found = true;
    search->isMain = isMain;
    search->name = isMain ? QByteArray() : QByteArray(info->dlpi_name);
    return 1;
}

// The virtual address (in the file) of the implementation this process's dynamic linker chose
// for an IFUNC. Only a file already loaded here qualifies: dlopen gets the name the dynamic
// linker knows it by, with RTLD_NOLOAD, so nothing is loaded, no constructor runs, and the
// file the caller named is never opened by the dynamic linker.
bool resolveIfunc(int fd, const QByteArray &symbol, quint64 *vaddr, QString *why)
{
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        *why = qt_error_string(errno);
        return false;
    }
    LoadedSearch search;
    search.dev = st.st_dev;
    search.ino = st.st_ino;
    dl_iterate_phdr(findLoaded, &search);
    if (!search.found) {
        *why = QStringLiteral("the file is not loaded in this process");
        return false;
    }
    void *handle =
        dlopen(search.isMain ? nullptr : search.name.constData(), RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) {
        *why = QStringLiteral("the file is not loaded in this process");
        return false;
    }
    dlerror();
    void *address = dlsym(handle, symbol.constData());
    struct link_map *own = nullptr;
    const bool haveOwn = dlinfo(handle, RTLD_DI_LINKMAP, &own) == 0 && own;
    Dl_info info;
    struct link_map *where = nullptr;
    const bool located =
        address &&
        dladdr1(address, &info, reinterpret_cast<void **>(&where), RTLD_DL_LINKMAP) != 0 && where;
    dlclose(handle);
    if (!address) {
        *why = QStringLiteral("the dynamic linker does not export it");
        return false;
    }
    // dlsym searches the library's dependencies too; only a definition in the file counts.
    if (!haveOwn || !located || where != own) {
        *why = QStringLiteral("the dynamic linker resolves it in another file");
        return false;
    }
    *vaddr = quint64(reinterpret_cast<quintptr>(address)) - quint64(where->l_addr);
    return true;
}

bool parseAddress(const QString &function, quint64 *address)
{
    if (!function.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) || function.size() < 3 ||
        function.size() > 18)
        return false;
    bool ok = false;
    *address = QStringView(function).mid(2).toULongLong(&ok, 16);
    // toULongLong accepts a sign and spaces: the digits must be only digits.
    for (const QChar c : QStringView(function).mid(2))
        ok = ok && ((c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
                    (c.toLower() >= QLatin1Char('a') && c.toLower() <= QLatin1Char('f')));
    return ok;
}

} // namespace

QString BinaryTarget::display() const
{
    return path + QLatin1Char(':') + (symbol.isEmpty() ? hex(address) : symbol);
}

bool sameFile(const SharedFd &a, const SharedFd &b)
{
    struct stat sa, sb;
    return fstat(a.get(), &sa) == 0 && fstat(b.get(), &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

QString findMappedLibrary(const QString &name, qint64 pid, QString *error)
{
    QString why;
    const std::optional<Mapped> mapped = findMapped(name, pid, &why);
    if (!mapped && error)
        *error = why;
    return mapped ? mapped->path : QString();
}

QString findLibrary(const QString &name, qint64 pid, QString *error)
{
    QString why;
    if (name.isEmpty() || name.contains(QLatin1Char('/'))) {
        why = QStringLiteral("'%1' is not a library name").arg(name);
    } else if (pid > 0) {
        const std::optional<Mapped> mapped = findMapped(name, pid, &why);
        if (mapped && !mapped->path.isEmpty())
            return mapped->path;
        if (mapped)
            return findHostLibrary(name, error);
    } else {
        return findHostLibrary(name, error);
    }
    if (error)
        *error = why;
    return QString();
}

// The binary of a uprobe or USDT target, located (a path, a library name, a program in PATH
// or what process pid maps) and opened: the file the process maps (same inode), an executable
// or shared library whose program headers this machine's loader accepts. *name is how errors
// name it: as the caller did when the caller gave a path, else *shown, its resolved path.
bool openTargetElf(const QString &binary, qint64 pid, Location *loc, ElfFile *file,
                   ElfHeader *header, QString *name, QString *shown, QString *why)
{
    auto fail = [&](const QString &message) {
        *why = message;
        return false;
    };
    if (!locate(binary, pid, loc, why))
        return false;
    *shown = loc->shownPath.isEmpty() ? canonical(loc->openPath) : loc->shownPath;
    *name = binary.contains(QLatin1Char('/')) ? binary : *shown;
    if (!openElf(loc->openPath, *name, file, header, why))
        return false;
    if (loc->inode) {
        struct stat st;
        if (::fstat(file->fd.get(), &st) != 0 || quint64(st.st_ino) != *loc->inode)
            return fail(QStringLiteral("%1 was replaced since process %2 mapped it")
                            .arg(*name)
                            .arg(loc->pid));
    }
    if (header->type != ET_EXEC && header->type != ET_DYN)
        return fail(QStringLiteral("%1 is neither an executable nor a shared library (ELF type %2)")
                        .arg(*name)
                        .arg(header->type));
    // The helper's own check (helper/uprobefile.cpp): what resolves here, it accepts.
    if (programHeaderProblem(*header) != ElfProgramHeaderProblem::None)
        return fail(
            QStringLiteral("%1 has no program headers this machine's loader accepts").arg(*name));
    return true;
}

bool resolveBinaryTarget(const QString &spec, qint64 pid, BinaryTarget *out, QString *error)
{
    QString why;
    auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    // The last colon: a path may hold one, a (mangled) symbol name cannot.
    const qsizetype colon = spec.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0 || colon == spec.size() - 1)
        return fail(QStringLiteral("'%1' is not BINARY:FUNCTION or BINARY:0xADDRESS").arg(spec));
    const QString binary = spec.left(colon);
    const QString function = spec.mid(colon + 1);
    quint64 asked = 0;
    const bool isAddress = parseAddress(function, &asked);
    const QByteArray symbol = function.toUtf8();
    if (!isAddress && symbol.contains('\0'))
        return fail(QStringLiteral("'%1' is not a function name").arg(function));

    Location loc;
    ElfFile file;
    ElfHeader header;
    QString name, shown;
    if (!openTargetElf(binary, pid, &loc, &file, &header, &name, &shown, &why))
        return fail(why);

    DebugSymbols debug(file.elf);
    BinaryTarget target;
    quint64 vaddr = 0;
    if (isAddress) {
        vaddr = asked;
        target.implementation = coveringFunction(file.elf, vaddr);
        if (target.implementation.isEmpty() && debug.get())
            target.implementation = coveringFunction(debug.get(), vaddr);
    } else {
        Function found = findFunction(file.elf, SHT_SYMTAB, symbol);
        if (!found.found)
            found = findFunction(file.elf, SHT_DYNSYM, symbol);
        if (!found.found && debug.get())
            found = findFunction(debug.get(), SHT_SYMTAB, symbol);
        if (!found.found) {
            const QString searched =
                debug.path().isEmpty() ? QString() : QStringLiteral(", and %1").arg(debug.path());
            return fail(QStringLiteral("no function %1 in %2 (searched .symtab and .dynsym%3)")
                            .arg(function, name, searched));
        }
        target.symbol = function;
        if (!found.ifunc) {
            vaddr = found.value;
            target.implementation = function;
        } else {
            QString reason;
            if (!resolveIfunc(file.fd.get(), symbol, &vaddr, &reason)) {
                QStringList names = implementationsOf(file.elf, symbol);
                if (names.isEmpty() && debug.get())
                    names = implementationsOf(debug.get(), symbol);
                const QString instead =
                    names.isEmpty() ? QStringLiteral("name the implementation instead (its symbol, "
                                                     "or its address as BINARY:0xADDRESS)")
                                    : QStringLiteral("name the implementation instead, e.g. %1")
                                          .arg(names.join(QLatin1String(", ")));
                return fail(QStringLiteral("%1 in %2 is an IFUNC (its implementation is chosen "
                                           "when the library loads) that cannot be resolved "
                                           "here (%3); %4")
                                .arg(function, name, reason, instead));
            }
            target.implementation = coveringFunction(file.elf, vaddr);
            if (target.implementation.isEmpty() && debug.get())
                target.implementation = coveringFunction(debug.get(), vaddr);
            // Unnamed (stripped, no debug file): the address is a name the caller can give back.
            if (target.implementation.isEmpty())
                target.implementation = hex(vaddr);
        }
    }
    quint64 offset = 0;
    if (!fileOffset(file.elf, file.size, vaddr, &offset)) {
        return fail(
            isAddress
                ? QStringLiteral("%1 in %2 is not in an executable segment").arg(hex(vaddr), name)
                : QStringLiteral("%1 at %2 in %3 is not in an executable segment")
                      .arg(target.implementation, hex(vaddr), name));
    }
    target.path = shown;
    target.address = vaddr;
    target.offset = offset;
    // libelf is done with the descriptor (the file is mapped); it goes to the caller.
    elf_end(file.elf);
    file.elf = nullptr;
    target.file = SharedFd::adopt(file.fd.release());
    *out = std::move(target);
    return true;
}

} // namespace bpflens

// USDT probes ---------------------------------------------------------------------------------

namespace bpflens {

namespace {

// The section called name, or nullptr.
Elf_Scn *sectionNamed(Elf *elf, const char *name, GElf_Shdr *header)
{
    size_t names = 0;
    size_t count = 0;
    if (elf_getshdrstrndx(elf, &names) != 0 || elf_getshdrnum(elf, &count) != 0)
        return nullptr;
    Elf_Scn *scn = nullptr;
    for (size_t s = 0; s < count && (scn = elf_nextscn(elf, scn)) != nullptr; ++s) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr))
            continue;
        const char *n = elf_strptr(elf, names, shdr.sh_name);
        if (n && std::strcmp(n, name) == 0) {
            *header = shdr;
            return scn;
        }
    }
    return nullptr;
}

// The file offset of a semaphore's address: in a writable PT_LOAD's file contents (the kernel
// increments it there, in each process's private copy of the page), within the file, and
// 2-byte aligned, as the helper's checkUsdtSemaphore demands of the 16-bit counter.
bool semaphoreOffset(Elf *elf, quint64 fileSize, quint64 vaddr, quint64 *offset)
{
    size_t count = 0;
    if (elf_getphdrnum(elf, &count) != 0)
        return false;
    count = std::min<size_t>(count, MaxElfProgramHeaders);
    for (size_t i = 0; i < count; ++i) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, int(i), &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_W))
            continue;
        if (vaddr < ph.p_vaddr || vaddr - ph.p_vaddr >= ph.p_filesz ||
            ph.p_filesz - (vaddr - ph.p_vaddr) < 2)
            continue;
        const quint64 at = ph.p_offset + (vaddr - ph.p_vaddr);
        if (at < ph.p_offset || at >= fileSize || fileSize - at < 2 || at % 2 != 0)
            continue;
        *offset = at;
        return true;
    }
    return false;
}

bool isIdentifier(const QString &s)
{
    if (s.isEmpty() || s.size() > 128)
        return false;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        const bool letter = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                            (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
                            c == QLatin1Char('_');
        if (!letter && !(i > 0 && c >= QLatin1Char('0') && c <= QLatin1Char('9')))
            return false;
    }
    return true;
}

} // namespace

bool resolveUsdtTarget(const QString &spec, qint64 pid, UsdtTarget *out, QString *error)
{
    QString why;
    auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    const qsizetype last = spec.lastIndexOf(QLatin1Char(':'));
    if (last <= 0 || last == spec.size() - 1)
        return fail(QStringLiteral("'%1' is not BINARY:PROVIDER:NAME or BINARY:NAME").arg(spec));
    const QString probeName = spec.mid(last + 1);
    QString binary = spec.left(last);
    QString provider;
    const qsizetype middle = binary.lastIndexOf(QLatin1Char(':'));
    if (middle > 0 && isIdentifier(binary.mid(middle + 1))) {
        provider = binary.mid(middle + 1);
        binary.truncate(middle);
    }
    if (!isIdentifier(probeName))
        return fail(QStringLiteral("'%1' is not a USDT probe name").arg(probeName.left(128)));

    Location loc;
    ElfFile file;
    ElfHeader header;
    QString name, shown;
    if (!openTargetElf(binary, pid, &loc, &file, &header, &name, &shown, &why))
        return fail(why);

    GElf_Shdr noteHeader;
    Elf_Scn *noteSection = sectionNamed(file.elf, ".note.stapsdt", &noteHeader);
    Elf_Data *data =
        noteSection && noteHeader.sh_type == SHT_NOTE ? elf_rawdata(noteSection, nullptr) : nullptr;
    if (!data || !data->d_buf)
        return fail(QStringLiteral("%1 has no USDT probes (no .note.stapsdt section)").arg(name));
    QList<UsdtNote> notes;
    if (!parseStapsdtNotes(static_cast<const char *>(data->d_buf), data->d_size,
                           header.elfClass == ELFCLASS64, &notes, &why))
        return fail(
            QStringLiteral("%1: its .note.stapsdt section is malformed: %2").arg(name, why));

    QList<UsdtNote> matching;
    QStringList available;
    for (const UsdtNote &n : std::as_const(notes)) {
        const QString full = n.provider + QLatin1Char(':') + n.name;
        if (!available.contains(full))
            available << full;
        if (n.name == probeName && (provider.isEmpty() || n.provider == provider))
            matching << n;
    }
    const QString asked = provider.isEmpty() ? probeName : provider + QLatin1Char(':') + probeName;
    if (matching.isEmpty()) {
        std::sort(available.begin(), available.end());
        const qsizetype shownCount = std::min<qsizetype>(available.size(), 20);
        QString list = available.mid(0, shownCount).join(QLatin1String(", "));
        if (available.size() > shownCount)
            list += QStringLiteral(" and %1 more").arg(available.size() - shownCount);
        return fail(
            QStringLiteral("no USDT probe %1 in %2; it has %3")
                .arg(asked.left(256), name, list.isEmpty() ? QStringLiteral("none") : list));
    }
    QStringList providers;
    for (const UsdtNote &n : std::as_const(matching)) {
        if (!providers.contains(n.provider))
            providers << n.provider;
    }
    if (providers.size() > 1)
        return fail(QStringLiteral("USDT probe %1 in %2 is ambiguous: name a provider (%3)")
                        .arg(probeName, name,
                             providers.join(QLatin1Char(':') + probeName + QLatin1String(", ")) +
                                 QLatin1Char(':') + probeName));
    if (matching.size() > MaxUsdtSites)
        return fail(QStringLiteral("USDT probe %1:%2 in %3 is at %4 places; at most %5 are "
                                   "attached at once")
                        .arg(matching[0].provider, probeName, name)
                        .arg(matching.size())
                        .arg(MaxUsdtSites));
    const UsdtNote &note = matching.front();

    UsdtTarget target;
    GElf_Shdr baseHeader;
    const bool haveBase = sectionNamed(file.elf, ".stapsdt.base", &baseHeader) != nullptr;
    for (qsizetype i = 0; i < matching.size(); ++i) {
        const UsdtNote &n = matching[i];
        // sys/sdt.h gives every site of a probe the same semaphore: one counter enables them all.
        if (n.semaphore != note.semaphore)
            return fail(QStringLiteral("USDT probe %1:%2 in %3 has different semaphores at its "
                                       "sites (%4 and %5)")
                            .arg(n.provider, n.name, name, hex(note.semaphore), hex(n.semaphore)));
        UsdtSite site;
        if (!parseUsdtArgs(n.args, &site.args, &why))
            return fail(QStringLiteral("USDT probe %1:%2 in %3 has arguments that cannot be read "
                                       "(site %4 of %5): %6")
                            .arg(n.provider, n.name, name)
                            .arg(i + 1)
                            .arg(matching.size())
                            .arg(why));
        if (i > 0 && site.args.size() != target.sites.front().args.size())
            return fail(
                QStringLiteral("USDT probe %1:%2 in %3 has %4 at one site and %5 at "
                               "another")
                    .arg(n.provider, n.name, name,
                         countOf(qint64(target.sites.front().args.size()), "argument", "arguments"),
                         QString::number(site.args.size())));
        // Prelinked files moved their code; .stapsdt.base says by how much.
        quint64 pc = n.pc;
        if (haveBase && n.base)
            pc += baseHeader.sh_addr - n.base;
        if (!fileOffset(file.elf, file.size, pc, &site.offset))
            return fail(
                QStringLiteral("USDT probe %1:%2 at %3 in %4 is not in an executable segment")
                    .arg(n.provider, n.name, hex(pc), name));
        if (i == 0)
            target.address = pc;
        target.sites.append(site);
    }
    if (note.semaphore &&
        !semaphoreOffset(file.elf, file.size, note.semaphore, &target.semaphoreOffset))
        return fail(QStringLiteral("the semaphore of USDT probe %1:%2 at %3 in %4 is not a "
                                   "2-byte aligned counter in a writable segment of the file")
                        .arg(note.provider, note.name, hex(note.semaphore), name));
    target.args = target.sites.front().args;
    target.offset = target.sites.front().offset;
    target.path = shown;
    target.provider = note.provider;
    target.name = note.name;
    elf_end(file.elf);
    file.elf = nullptr;
    target.file = SharedFd::adopt(file.fd.release());
    *out = std::move(target);
    return true;
}

} // namespace bpflens
