/* Host stand-in for asm/jump_label.h: a static key is a plain flag here. */
#ifndef ASM_JUMP_LABEL_H
#define ASM_JUMP_LABEL_H

#include "linux/types.h"

struct static_key {
	bool enabled;
};

static inline bool static_branch_unlikely(struct static_key *key)
{
	return key->enabled;
}

static inline void static_branch_enable(struct static_key *key)
{
	key->enabled = true;
}

static inline void static_branch_disable(struct static_key *key)
{
	key->enabled = false;
}

#endif
