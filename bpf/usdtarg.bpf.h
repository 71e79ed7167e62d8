/* SPDX-License-Identifier: GPL-2.0 */
/* A USDT argument fetched as its spec says (struct usdt_arg_spec): for the usdt probe, and for
 * tppair's and tpcount's USDT hooks keyed by an argument. */
#ifndef BPFLENS_USDTARG_BPF_H
#define BPFLENS_USDTARG_BPF_H

#include <bpf/bpf_core_read.h>

#include "bpf/usdt.records.h"

/* Which of the probe's argument lists (USDT_MAX_SPECS) holds at the site that fired: its
 * uprobe's attach cookie. A kernel before 5.15 has no cookies; the load there keeps only the 0
 * branch, and the helper attaches nothing that needs another list. */
static __always_inline __u32 usdt_spec_id(struct pt_regs *ctx)
{
    if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_get_attach_cookie)) {
        __u64 id = bpf_get_attach_cookie(ctx);

        return id < USDT_MAX_SPECS ? (__u32)id : 0;
    }
    return 0;
}

/* The spec index again where it indexes an array: 6.1's verifier loses the bound of a value the
 * compiler spilled to the stack before checking it ("unbounded memory access"), so the index is
 * masked at each use, behind a barrier that keeps the compiler from dropping the mask it knows
 * to be a no-op. Callers have checked spec < USDT_MAX_SPECS, so the value does not change. */
_Static_assert((USDT_MAX_SPECS & (USDT_MAX_SPECS - 1)) == 0, "USDT_MAX_SPECS: a power of two");
static __always_inline __u32 usdt_spec_index(__u32 spec)
{
    barrier_var(spec);
    return spec & (USDT_MAX_SPECS - 1);
}

/* False when memory the spec points to is not mapped (*out is 0 then). */
static __always_inline bool usdt_arg_read(struct pt_regs *ctx,
                                          const volatile struct usdt_arg_spec *spec, __u64 *out)
{
    __u64 val = 0;
    __u32 size;
    int shift;

    *out = 0;
    size = spec->size;
    if (size > 8 || size == 0)
        size = 8;
    switch (spec->kind) {
    case USDT_ARG_CONST:
        val = spec->val_off;
        break;
    case USDT_ARG_REG:
        if (bpf_probe_read_kernel(&val, sizeof(val), (void *)ctx + spec->reg_off))
            return false;
        break;
    case USDT_ARG_MEM:
        if (bpf_probe_read_kernel(&val, sizeof(val), (void *)ctx + spec->reg_off))
            return false;
        {
            void *at = (void *)(val + spec->val_off);

            /* Only the argument's bytes: the 8 after it may already be unmapped. */
            val = 0;
            if (bpf_probe_read_user(&val, size, at))
                return false;
        }
        break;
    default:
        return true;
    }
    shift = 64 - 8 * size;
    if (spec->is_signed)
        *out = (__u64)(((__s64)(val << shift)) >> shift);
    else
        *out = (val << shift) >> shift;
    return true;
}

#endif
