/* NUMA memory policies: mbind, set_mempolicy, get_mempolicy (linux/mempolicy.h). */
#ifndef _UAPI_LINUX_MEMPOLICY_H
#define _UAPI_LINUX_MEMPOLICY_H

/* Policies (the mode argument, below its flags). */
#define MPOL_DEFAULT                    0
#define MPOL_PREFERRED                  1
#define MPOL_BIND                       2
#define MPOL_INTERLEAVE                 3
#define MPOL_LOCAL                      4
#define MPOL_PREFERRED_MANY             5
#define MPOL_WEIGHTED_INTERLEAVE        6
#define MPOL_MAX                        7

/* Mode flags, or-ed into the mode. */
#define MPOL_F_STATIC_NODES     (1 << 15)
#define MPOL_F_RELATIVE_NODES   (1 << 14)
#define MPOL_F_NUMA_BALANCING   (1 << 13)
#define MPOL_MODE_FLAGS (MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES | MPOL_F_NUMA_BALANCING)

/* get_mempolicy flags. */
#define MPOL_F_NODE             (1 << 0)
#define MPOL_F_ADDR             (1 << 1)
#define MPOL_F_MEMS_ALLOWED     (1 << 2)

/* mbind flags. */
#define MPOL_MF_STRICT          (1 << 0)
#define MPOL_MF_MOVE            (1 << 1)
#define MPOL_MF_MOVE_ALL        (1 << 2)
#define MPOL_MF_LAZY            (1 << 3)
#define MPOL_MF_VALID           (MPOL_MF_STRICT | MPOL_MF_MOVE | MPOL_MF_MOVE_ALL)

#endif
