/* futex()'s operations and the robust list's layout (Linux's include/uapi/linux/futex.h). */
#ifndef _UAPI_LINUX_FUTEX_H
#define _UAPI_LINUX_FUTEX_H

#define FUTEX_WAIT              0
#define FUTEX_WAKE              1
#define FUTEX_REQUEUE           3
#define FUTEX_CMP_REQUEUE       4
#define FUTEX_WAIT_BITSET       9
#define FUTEX_WAKE_BITSET       10
#define FUTEX_PRIVATE_FLAG      128
#define FUTEX_CLOCK_REALTIME    256
#define FUTEX_CMD_MASK          (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_MATCH_ANY  0xffffffff

#define FUTEX_WAITERS           0x80000000
#define FUTEX_OWNER_DIED        0x40000000
#define FUTEX_TID_MASK          0x3fffffff

/* The head user space registers with set_robust_list (x86-64 layout). */
struct robust_list_head {
	unsigned long list;             /* the first entry; the head's own address ends it */
	long futex_offset;              /* from an entry to its futex word */
	unsigned long list_op_pending;  /* an entry being taken or released */
};

#define ROBUST_LIST_LIMIT       2048

#endif
