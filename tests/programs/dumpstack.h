/* Test programs' --dump mode: the function that calls BPFLENS_DUMP_STACK(path) writes its own
 * registers (DWARF numbering, as the profile BPF program copies them), 16 KiB of its stack from
 * rsp upwards (less when the stack ends sooner) and /proc/self/maps into path, so the tests can
 * feed a real stack to the symbolizer without BPF. The file is written under path.tmp and renamed,
 * so it appears complete. Format, little-endian: "BLDUMP01", u32 pid, u32 tid, 17 x u64
 * registers, u32 stack size, the stack, u32 maps size, the maps text. x86_64 only. */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BPFLENS_DUMP_STACK_BYTES 16384

static uint64_t bpflens_dump_registers[17];

/* rbx (3), rbp (6), rsp (7), r12-r15 (12-15) and rip (16) at this instruction: what unwinding
 * needs. The others are not used by the unwinder and stay 0. */
#define BPFLENS_CAPTURE_REGISTERS(regs)                                                            \
    __asm__ volatile("movq %%rbx, 24(%0)\n\t"                                                      \
                     "movq %%rbp, 48(%0)\n\t"                                                      \
                     "movq %%rsp, 56(%0)\n\t"                                                      \
                     "movq %%r12, 96(%0)\n\t"                                                      \
                     "movq %%r13, 104(%0)\n\t"                                                     \
                     "movq %%r14, 112(%0)\n\t"                                                     \
                     "movq %%r15, 120(%0)\n\t"                                                     \
                     "leaq 0(%%rip), %%rax\n\t"                                                    \
                     "movq %%rax, 128(%0)\n\t"                                                     \
                     :                                                                             \
                     : "r"(regs)                                                                   \
                     : "rax", "memory")

static char *bpflens_read_maps(size_t *size)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return NULL;
    size_t capacity = 1 << 16, used = 0;
    char *text = (char *)malloc(capacity);
    size_t n;
    while (text && (n = fread(text + used, 1, capacity - used, f)) > 0) {
        used += n;
        if (used == capacity)
            text = (char *)realloc(text, capacity *= 2);
    }
    fclose(f);
    *size = used;
    return text;
}

/* How many bytes from sp up are mapped (in the mapping that holds sp), at most max. */
static size_t bpflens_readable_stack(const char *maps, size_t size, uint64_t sp, size_t max)
{
    const char *p = maps, *end = maps + size;
    while (p < end) {
        unsigned long long lo = 0, hi = 0;
        if (sscanf(p, "%llx-%llx", &lo, &hi) == 2 && sp >= lo && sp < hi)
            return hi - sp < max ? (size_t)(hi - sp) : max;
        const char *nl = (const char *)memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break;
        p = nl + 1;
    }
    return 0;
}

__attribute__((noinline)) static void bpflens_write_dump(const char *path, const uint64_t *regs)
{
    size_t mapsSize = 0;
    char *maps = bpflens_read_maps(&mapsSize);
    if (!maps) {
        perror("/proc/self/maps");
        exit(1);
    }
    const size_t stackSize =
        bpflens_readable_stack(maps, mapsSize, regs[7], BPFLENS_DUMP_STACK_BYTES);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        perror(tmp);
        exit(1);
    }
    const uint32_t pid = (uint32_t)getpid(), tid = (uint32_t)syscall(SYS_gettid);
    const uint32_t stack32 = (uint32_t)stackSize, maps32 = (uint32_t)mapsSize;
    fwrite("BLDUMP01", 1, 8, f);
    fwrite(&pid, 4, 1, f);
    fwrite(&tid, 4, 1, f);
    fwrite(regs, 8, 17, f);
    fwrite(&stack32, 4, 1, f);
    fwrite((const void *)(uintptr_t)regs[7], 1, stackSize, f);
    fwrite(&maps32, 4, 1, f);
    fwrite(maps, 1, mapsSize, f);
    free(maps);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        perror(path);
        exit(1);
    }
}

/* Captures this function's registers and writes the dump, when path is set. */
#define BPFLENS_DUMP_STACK(path)                                                                   \
    do {                                                                                           \
        if (path) {                                                                                \
            BPFLENS_CAPTURE_REGISTERS(bpflens_dump_registers);                                     \
            bpflens_write_dump(path, bpflens_dump_registers);                                      \
        }                                                                                          \
    } while (0)

/* argv: [seconds] [--dump FILE]. */
static void bpflens_parse_arguments(int argc, char **argv, double *seconds, const char **dump)
{
    *seconds = 2;
    *dump = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc)
            *dump = argv[++i];
        else
            *seconds = atof(argv[i]);
    }
}
