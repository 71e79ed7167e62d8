/* Built with -m32: the system calls a 32-bit process makes reach an x86_64 kernel as ia32
 * syscalls, with other numbers and registers than a 64-bit process' (see syscalls.bpf.h).
 * tst_compat32 runs it and checks that the open and exec probes report what it did.
 *
 *   compat32 open PATH    open, openat, creat and openat2 of PATH (creat and openat2 on PATH-c
 *                         and PATH), then readlink, whose ia32 number is x86_64's creat; prints
 *                         one line per open: "<call> <flags> <mode> <result>"
 *   compat32 exec PROG ARG...  execve(PROG, [PROG, ARG...]) and, if that returns, its -errno
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* linux/openat2.h's struct open_how, which older headers lack. */
struct how
{
    uint64_t flags;
    uint64_t mode;
    uint64_t resolve;
};

static long report(const char *call, long flags, long mode, long ret)
{
    printf("%s %ld %lo %ld\n", call, flags, mode, ret < 0 ? -(long)errno : ret);
    if (ret >= 0)
        close((int)ret);
    return ret;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "open") == 0) {
        const char *path = argv[2];
        char created[4096];
        char link[64];
        struct how how = {O_RDONLY | O_NOFOLLOW, 0, 0};

        snprintf(created, sizeof(created), "%s-c", path);
        /* Raw system calls: libc's wrappers would choose the call and add O_LARGEFILE. */
        report("openat", O_RDONLY | O_CLOEXEC, 0,
               syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC));
        report("open", O_RDONLY, 0, syscall(SYS_open, path, O_RDONLY));
        report("creat", O_CREAT | O_WRONLY | O_TRUNC, 0640, syscall(SYS_creat, created, 0640));
        report("openat2", O_RDONLY | O_NOFOLLOW, 0,
               syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how)));
        report("open", O_RDONLY, 0, syscall(SYS_open, "/nonexistent/compat32", O_RDONLY));
        /* Must not be mistaken for x86_64's creat (85) or anything else. */
        if (syscall(SYS_readlink, "/proc/self/exe", link, sizeof(link)) < 0)
            return 1;
        unlink(created);
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "exec") == 0) {
        execv(argv[2], argv + 2);
        printf("exec %d\n", -errno);
        return 0;
    }
    fprintf(stderr, "usage: compat32 open PATH | compat32 exec PROG [ARG...]\n");
    return 2;
}
