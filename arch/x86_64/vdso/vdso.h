/*
 * What the vDSO's code shares: the [vvar] page, which vdso.lds places one
 * page below the vDSO's first byte.  Hidden, so that every access is
 * relative to the instruction pointer: the vDSO has no relocations and
 * runs wherever it is mapped.
 */
#ifndef _ARCH_X86_64_VDSO_VDSO_H
#define _ARCH_X86_64_VDSO_VDSO_H

#include "vdso/datapage.h"

extern const struct vdso_data vvar_page __attribute__((visibility("hidden")));

#endif
