/* Port I/O. */
#ifndef ASM_IO_H
#define ASM_IO_H

#include "linux/types.h"

static inline void outb(u16 port, u8 v)
{
	__asm__ __volatile__("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

#endif
