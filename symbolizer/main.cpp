// bpflens-symbolizer: unwinds and symbolises user stacks for the helper (SymbolizerClient), in
// a process of its own that parses the untrusted ELF and DWARF data of other users' programs.
// Started with a SOCK_SEQPACKET socket as fd 3 (or --fd N). Before it reads any request it closes
// every other descriptor but stderr, and, started as root, becomes nobody (no groups, no
// capabilities, no way back) with no_new_privs and a seccomp filter; it then serves
// symbolizerprotocol.h's messages until the socket closes. docs/profiling.md, "Unwinding and
// symbols".
#include "symbolizer/symbolizerprotocol.h"
#include "symbolizer/unwinder.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pwd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define BPFLENS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BPFLENS_SANITIZED 1
#endif
#endif

using namespace bpflens;

namespace {

[[noreturn]] void die(const char *what)
{
    std::fprintf(stderr, "bpflens-symbolizer: %s: %s\n", what, std::strerror(errno));
    std::_Exit(2);
}

[[noreturn]] void fail(const std::string &what)
{
    std::fprintf(stderr, "bpflens-symbolizer: %s\n", what.c_str());
    std::_Exit(2);
}

// Every descriptor but stdin/stdout (reopened on /dev/null), stderr and the socket is closed.
void closeOtherDescriptors(int keep)
{
    const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0)
        die("/dev/null");
    if (dup2(null, 0) < 0 || dup2(null, 1) < 0)
        die("dup2");
    std::vector<int> fds;
    if (DIR *dir = opendir("/proc/self/fd")) {
        while (dirent *e = readdir(dir)) {
            char *end = nullptr;
            const long fd = std::strtol(e->d_name, &end, 10);
            if (end != e->d_name && *end == '\0')
                fds.push_back(static_cast<int>(fd));
        }
        closedir(dir); // closes its own descriptor, which is in the list: closing it again fails
    } else {
        die("/proc/self/fd");
    }
    for (int fd : fds)
        if (fd > 2 && fd != keep)
            close(fd);
}

bool capabilitiesEmpty()
{
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3]{};
    if (syscall(SYS_capget, &header, data) != 0)
        return false;
    for (const auto &d : data)
        if (d.effective || d.permitted || d.inheritable)
            return false;
    return true;
}

void dropPrivileges()
{
    if (geteuid() == 0 || getuid() == 0) {
        uid_t uid = 65534;
        gid_t gid = 65534;
        if (const passwd *pw = getpwnam("nobody")) {
            uid = pw->pw_uid;
            gid = pw->pw_gid;
        }
        if (uid == 0 || gid == 0)
            fail("'nobody' is root in the user database");
        if (setgroups(0, nullptr) != 0)
            die("setgroups");
        if (setresgid(gid, gid, gid) != 0)
            die("setresgid");
        if (setresuid(uid, uid, uid) != 0)
            die("setresuid");
        uid_t r, e, s;
        gid_t rg, eg, sg;
        if (getresuid(&r, &e, &s) != 0 || r != uid || e != uid || s != uid ||
            getresgid(&rg, &eg, &sg) != 0 || rg != gid || eg != gid || sg != gid)
            fail("the user or group did not change");
        if (setuid(0) == 0 || seteuid(0) == 0 || setgid(0) == 0)
            fail("could become root again after dropping privileges");
        if (getgroups(0, nullptr) != 0)
            fail("supplementary groups are left");
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        die("PR_SET_NO_NEW_PRIVS");
        // Not under the sanitizers: LeakSanitizer inspects the process with ptrace at exit, which a
        // non-dumpable process refuses.
#ifndef BPFLENS_SANITIZED
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        die("PR_SET_DUMPABLE");
#endif
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
        die("PR_CAP_AMBIENT_CLEAR_ALL");
    if (!capabilitiesEmpty())
        fail("capabilities are left after dropping privileges");
    const rlimit noCore{0, 0};
    setrlimit(RLIMIT_CORE, &noCore);
    // Each reported module keeps its descriptor (libdwfl closes it with the module): as many as
    // the hard limit allows, where the soft one is often 1024.
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
}

#ifndef BPFLENS_SANITIZED
// What serving requests needs: socket I/O, memory, reading the descriptors it was given, and
// dying. Everything else fails with EPERM (rather than killing: a library that tries to open a
// file by name just does not get it), and so does mapping or making memory executable.
void installSeccompFilter()
{
    static const unsigned allowed[] = {
        SYS_read,       SYS_write,       SYS_pread64,       SYS_lseek,          SYS_close,
        SYS_fstat,      SYS_newfstatat,  SYS_statx,         SYS_recvmsg,        SYS_recvfrom,
        SYS_sendmsg,    SYS_sendto,      SYS_munmap,        SYS_mremap,         SYS_brk,
        SYS_madvise,    SYS_futex,       SYS_clock_gettime, SYS_gettimeofday,   SYS_getpid,
        SYS_gettid,     SYS_getrandom,   SYS_rt_sigreturn,  SYS_rt_sigprocmask, SYS_tgkill,
        SYS_geteuid,    SYS_getuid,      SYS_getegid,       SYS_getgid,         SYS_exit,
        SYS_exit_group, SYS_sched_yield, SYS_fcntl,
    };
    std::vector<sock_filter> f;
    auto stmt = [&](uint16_t code, uint32_t k) { f.push_back(BPF_STMT(code, k)); };
    auto jump = [&](uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) {
        f.push_back(BPF_JUMP(code, k, jt, jf));
    };
    constexpr uint32_t deny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
    stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
    jump(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
    stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
    jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1); // x32
    stmt(BPF_RET | BPF_K, deny);
    for (unsigned nr : allowed) {
        jump(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1);
        stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    }
    // mmap and mprotect without PROT_EXEC (the low half of args[2]).
    jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_mmap, 1, 0);
    jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_mprotect, 0, 4);
    stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[2]));
    jump(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1);
    stmt(BPF_RET | BPF_K, deny);
    stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    stmt(BPF_RET | BPF_K, deny);
    const sock_fprog program{static_cast<unsigned short>(f.size()), f.data()};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0)
        die("seccomp");
}
#endif

bool sendPacket(int sock, const std::vector<uint8_t> &packet)
{
    for (;;) {
        const ssize_t n = send(sock, packet.data(), packet.size(), MSG_NOSIGNAL);
        if (n >= 0)
            return true;
        if (errno != EINTR)
            return false;
    }
}

} // namespace

int main(int argc, char **argv)
{
    int sock = 3;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--fd") == 0 && i + 1 < argc) {
            sock = std::atoi(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: %s [--fd N]  (started by bpflens-helper)\n", argv[0]);
            return 2;
        }
    }
    int type = 0;
    socklen_t typeSize = sizeof type;
    if (sock <= 2 || getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &typeSize) != 0 ||
        type != SOCK_SEQPACKET)
        fail("descriptor " + std::to_string(sock) + " is not a SOCK_SEQPACKET socket");
    closeOtherDescriptors(sock);
    std::signal(SIGPIPE, SIG_IGN);
    dropPrivileges();
    const int bufferSize = 1 << 20;
    setsockopt(sock, SOL_SOCKET, SO_SNDBUF, &bufferSize, sizeof bufferSize);
    setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &bufferSize, sizeof bufferSize);
    symbolizer::Unwinder unwinder;
    std::vector<uint8_t> buffer(symproto::MaxMessageBytes);
#ifndef BPFLENS_SANITIZED
    // Not under the sanitizers, whose reports need more (/proc/self/maps, symbolizers).
    installSeccompFilter();
#endif

    if (!sendPacket(sock,
                    symproto::encodeHello(0, {symproto::Version, static_cast<uint32_t>(getpid()),
                                              static_cast<uint32_t>(geteuid())})))
        die("sending hello");

    constexpr size_t MaxFds = 4;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * MaxFds)];
    for (;;) {
        iovec iov{buffer.data(), buffer.size()};
        msghdr msg{};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        const ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
        if (n == 0)
            return 0; // the helper closed its end
        if (n < 0) {
            if (errno == EINTR)
                continue;
            die("recvmsg");
        }
        std::vector<int> fds;
        for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
                continue;
            const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < count; ++i) {
                int fd;
                std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                fds.push_back(fd);
            }
        }
        const std::span<const uint8_t> packet(buffer.data(), static_cast<size_t>(n));
        symproto::Header header;
        const bool whole = !(msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC));
        const bool decoded = whole && symproto::decodeHeader(packet, &header);
        int moduleFd = -1;
        if (decoded && header.type == symproto::MessageType::AddModule && fds.size() == 1) {
            symproto::AddModule m;
            if (symproto::decodeAddModule(header.payload, &m)) {
                moduleFd = fds.front();
                fds.clear();
                std::string error;
                unwinder.addModule(m.pid, m.start, m.end, m.offset, m.path, moduleFd, &error);
            }
        } else if (decoded && header.type == symproto::MessageType::ForgetProcess) {
            uint32_t pid = 0;
            if (symproto::decodeForgetProcess(header.payload, &pid))
                unwinder.forgetProcess(pid);
        } else if (decoded && header.type == symproto::MessageType::Unwind) {
            symproto::Unwind u;
            symproto::Stack stack;
            if (symproto::decodeUnwind(header.payload, &u))
                stack = unwinder.unwind(u.pid, u.tid, u.registers, u.stack, u.framePointerIps);
            else
                stack.truncated = true;
            if (!sendPacket(sock, symproto::encodeStack(header.sequence, stack)))
                die("send");
        }
        for (int fd : fds)
            close(fd);
    }
}
